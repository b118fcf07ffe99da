"""What the test provider says about a person: their groups, and whether it checked a second
factor (``amr``). A person switched off here cannot refresh their tokens, as at a real
provider."""

from oauth2_provider.oauth2_validators import OAuth2Validator

# A provider group that only marks the person as having passed a second factor here.
MFA_GROUP = "provider-mfa"


class Validator(OAuth2Validator):
    oidc_claim_scope = None  # every claim below goes in the ID token

    def get_additional_claims(self, request):
        user = request.user
        groups = sorted(user.groups.values_list("name", flat=True))
        return {
            "preferred_username": user.username,
            "given_name": user.first_name,
            "family_name": user.last_name,
            "email": user.email,
            "groups": [g for g in groups if g != MFA_GROUP],
            "amr": ["pwd", "mfa"] if MFA_GROUP in groups else ["pwd"],
        }

    def validate_refresh_token(self, refresh_token, client, request, *args, **kwargs):
        ok = super().validate_refresh_token(refresh_token, client, request, *args, **kwargs)
        return bool(ok and request.user.is_active)
