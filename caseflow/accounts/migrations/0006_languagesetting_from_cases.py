# The language settings move from ``cases`` to ``accounts``: the state only. The table keeps
# its name (``cases_languagesetting``) and its rows; nothing in the database changes.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0005_agency_advocate_title'),
        ('cases', '0011_language'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='LanguageSetting',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('language', models.CharField(max_length=16)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('agency', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='accounts.agency')),
                        ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'cases_languagesetting',
                        'constraints': [models.UniqueConstraint(fields=('agency', 'user'), name='language_one_per_user'), models.UniqueConstraint(condition=models.Q(('user__isnull', True)), fields=('agency',), name='language_one_per_agency')],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
