"""Forms for signing in and for agency admins managing staff and teams."""

from __future__ import annotations

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import AuthenticationForm

from caseflow.accounts.models import User
from caseflow.lib.form_parts import submit_helper
from caseflow.lib.i18n import gettext_lazy as _


class LoginForm(AuthenticationForm):
    error_messages = {
        # One message for a wrong user and a wrong password.
        "invalid_login": _("Those details are not right. Check them and try again."),
        "inactive": _("Those details are not right. Check them and try again."),
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Sign in"))


class CodeForm(forms.Form):
    """A code from the authenticator app, or a recovery code."""

    token = forms.CharField(
        max_length=24,
        label=_("Code"),
        help_text=_("The 6-digit code from your authenticator app, or one of your recovery codes."),
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "autofocus": True}),
    )

    def __init__(self, *args, submit: str = "Continue", **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(submit)


class EnrolForm(forms.Form):
    token = forms.RegexField(
        regex=r"^\s*\d{6,8}\s*$",
        max_length=12,
        label=_("Code from the app"),
        error_messages={"invalid": _("Enter the 6-digit code your app shows.")},
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "autofocus": True}
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.helper = submit_helper(_("Turn on"))


class ReauthForm(forms.Form):
    password = forms.CharField(
        label=_("Password"),
        max_length=4096,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    token = forms.CharField(
        max_length=24,
        required=False,
        label=_("Code"),
        help_text=_("The 6-digit code from your authenticator app, or a recovery code."),
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code"}),
    )

    def __init__(self, *args, code_required: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["token"].required = code_required
        if not code_required:
            del self.fields["token"]
        self.helper = submit_helper(_("Confirm"))


class PasswordChangeForm(forms.Form):
    old_password = forms.CharField(
        max_length=4096,
        label=_("Current password"),
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    new_password = forms.CharField(
        max_length=4096,
        label=_("New password"),
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=_("At least 12 characters; not a common password."),
    )

    def __init__(self, *args, user: User, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        self.helper = submit_helper(_("Change password"))

    def clean_old_password(self) -> str:
        value = self.cleaned_data["old_password"]
        if not self.user.check_password(value):
            raise forms.ValidationError(_("That is not your current password."))
        return value

    def clean_new_password(self) -> str:
        value = self.cleaned_data["new_password"]
        password_validation.validate_password(value, self.user)
        return value


class SetPasswordForm(forms.Form):
    """Choosing one's own password through an enrolment or reset link."""

    new_password = forms.CharField(
        max_length=4096,
        label=_("New password"),
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password", "autofocus": True}),
        help_text=_("At least 12 characters; not a common password."),
    )
    new_password_again = forms.CharField(
        max_length=4096,
        label=_("New password again"),
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def __init__(self, *args, user: User, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        self.helper = submit_helper(_("Set password"))

    def clean_new_password(self) -> str:
        value = self.cleaned_data["new_password"]
        password_validation.validate_password(value, self.user)
        return value

    def clean(self):
        data = super().clean()
        first, again = data.get("new_password"), data.get("new_password_again")
        if first and again is not None and first != again:
            self.add_error("new_password_again", _("The two passwords are not the same."))
        return data
