"""Run the test provider: ``python -m tests.oidc_provider.server PORT``. It makes its own
database and RSA signing key at start, and serves until it is stopped."""

import os
import sys


def main() -> None:
    port = int(sys.argv[1])
    os.environ["DJANGO_SETTINGS_MODULE"] = "tests.oidc_provider.settings"
    os.environ.setdefault("PROVIDER_ISSUER", f"http://127.0.0.1:{port}/o")
    if not os.environ.get("PROVIDER_RSA_KEY"):
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import rsa

        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        os.environ["PROVIDER_RSA_KEY"] = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ).decode()
    if not os.environ.get("PROVIDER_DB"):
        import tempfile

        os.environ["PROVIDER_DB"] = os.path.join(tempfile.mkdtemp(), "provider.sqlite3")
    import django

    django.setup()
    from django.core.management import call_command
    from django.core.servers.basehttp import WSGIServer, run
    from django.core.wsgi import get_wsgi_application

    call_command("migrate", verbosity=0, interactive=False)
    WSGIServer.request_queue_size = 20
    run("127.0.0.1", port, get_wsgi_application(), threading=True)


if __name__ == "__main__":
    main()
