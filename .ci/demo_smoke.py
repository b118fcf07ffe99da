"""Smoke test of the README's first command: the demo answers, a demo advocate signs in and sees
their dashboard. Run by .ci/run while `manage.py demo` is running."""

import http.cookiejar
import json
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

base = sys.argv[1].rstrip("/")
users_file = Path(sys.argv[2])

deadline = time.monotonic() + 120
while True:
    try:
        with urllib.request.urlopen(f"{base}/accounts/login/", timeout=5) as r:
            if r.status == 200:
                break
    except (urllib.error.URLError, ConnectionError):
        pass
    if time.monotonic() > deadline:
        sys.exit("demo: the login page never answered")
    time.sleep(1)

advocate = next(u for u in json.loads(users_file.read_text()) if u["role"] == "advocate")
jar = http.cookiejar.CookieJar()
opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
page = opener.open(f"{base}/accounts/login/").read().decode()
token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
form = urllib.parse.urlencode(
    {
        "csrfmiddlewaretoken": token,
        "username": advocate["username"],
        "password": advocate["password"],
    }
).encode()
request = urllib.request.Request(
    f"{base}/accounts/login/", data=form, headers={"Referer": f"{base}/accounts/login/"}
)
dashboard = opener.open(request).read().decode()
if "Your open cases" not in dashboard:
    sys.exit("demo: the advocate's dashboard did not appear after signing in")
cases = re.findall(r'href="(/cases/[A-Za-z0-9_-]{16,32}/)"', dashboard)
if not cases:
    sys.exit("demo: the demo advocate has no cases on the dashboard")
detail = opener.open(f"{base}{cases[0]}").read().decode()
if "Safe contact" not in detail:
    sys.exit("demo: a case page did not render")
timeline = opener.open(f"{base}{cases[0]}timeline/").read().decode()
if "Timeline:" not in timeline or 'class="timeline-entry' not in timeline:
    sys.exit("demo: a case timeline did not render with entries")
print(f"demo: {advocate['username']} signed in and saw {len(cases)} cases")
