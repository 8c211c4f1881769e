"""deploy/ holds what production runs; these tests keep it in step with the code it runs.

The settings read their environment through django-environ (`env.str("NAME", ...)` and friends): the names are
taken from that code, so a variable added there and missing from the example file fails here, and so does a
name in the example that nothing reads (a typo there would be silently ignored in production).
"""

from __future__ import annotations

import ast
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from django.conf import settings

from tests.servers import ROOT

DEPLOY = ROOT / "deploy"
DAPHNE_UNIT = DEPLOY / "systemd" / "cardclub-daphne@.service"
RELEASE_UNIT = DEPLOY / "systemd" / "cardclub-release.service"
ENV_EXAMPLE = DEPLOY / "cardclub.env.example"
NGINX_SITE = DEPLOY / "nginx" / "cardclub.conf"
SETTINGS_FILES = [ROOT / "config" / "settings.py", ROOT / "config" / "production.py"]


def unit(path: Path) -> dict[str, dict[str, list[str]]]:
    """A systemd unit file's sections and keys; a key may be given more than once (ExecStart of a oneshot)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        assert current is not None, f"{path.name}: {line!r} before any section"
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def one(section: dict[str, list[str]], key: str) -> str:
    values = section.get(key, [])
    assert len(values) == 1, f"{key}: {values}"
    return values[0]


def variables_read(path: Path) -> dict[str, bool]:
    """Each environment variable the settings file reads, and whether it is read without a default there."""
    found: dict[str, bool] = {}
    for node in ast.walk(ast.parse(path.read_text())):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "env"):
            name = ast.literal_eval(node.args[0])
            required = not node.keywords and len(node.args) == 1
            found[name] = found.get(name, False) or required
    return found


def example_lines() -> tuple[dict[str, str], set[str], list[str]]:
    """The example's set variables (name: value), its commented-out ones (defaults shown), and its lines."""
    lines = ENV_EXAMPLE.read_text().splitlines()
    set_, shown = {}, set()
    for line in lines:
        if found := re.fullmatch(r"([A-Z][A-Z0-9_]*)=(.*)", line):
            set_[found.group(1)] = found.group(2)
        elif found := re.fullmatch(r"#([A-Z][A-Z0-9_]*)=.*", line):
            shown.add(found.group(1))
    return set_, shown, lines


def test_each_daphne_instance_runs_the_venvs_daphne_behind_the_proxy_on_its_own_loopback_port() -> None:
    service = unit(DAPHNE_UNIT)["Service"]
    home = one(service, "WorkingDirectory")
    command = shlex.split(one(service, "ExecStart"))
    assert command[0] == f"{home}/.venv/bin/daphne"
    assert "--proxy-headers" in command  # nginx's X-Forwarded-For is the client: README, "Behind nginx"
    assert command[command.index("-b") + 1] == "127.0.0.1"  # with --proxy-headers only nginx may reach it
    assert command[command.index("-p") + 1] == "%i"  # the instance is the port: cardclub-daphne@8001
    assert command[-1] == settings.ASGI_APPLICATION.replace(".application", ":application")
    assert one(service, "EnvironmentFile") == "/etc/cardclub/cardclub.env"
    assert one(service, "User") not in ("", "root")
    assert one(service, "Restart") == "on-failure"
    assert (one(service, "NoNewPrivileges"), one(service, "ProtectSystem"), one(service, "PrivateTmp")) == (
        "yes", "strict", "yes")


def test_the_release_runs_migrate_and_collectstatic_as_the_same_user_and_may_write_only_static_root() -> None:
    daphne, release = unit(DAPHNE_UNIT)["Service"], unit(RELEASE_UNIT)["Service"]
    home = one(release, "WorkingDirectory")
    for key in ("WorkingDirectory", "User", "EnvironmentFile"):
        assert one(release, key) == one(daphne, key)
    steps = [shlex.split(command) for command in release["ExecStart"]]
    assert [step[:2] for step in steps] == [[f"{home}/.venv/bin/python", "manage.py"]] * 2
    assert [step[2] for step in steps] == ["migrate", "collectstatic"]
    assert one(release, "ProtectSystem") == "strict"
    static_root = Path(settings.STATIC_ROOT).relative_to(settings.BASE_DIR)
    assert release["ReadWritePaths"] == [f"{home}/{static_root}"]


def test_the_environment_example_names_every_variable_the_settings_read_and_no_other() -> None:
    read: dict[str, bool] = {}
    for path in SETTINGS_FILES:
        for name, required in variables_read(path).items():
            read[name] = read.get(name, False) or required
    assert {"SECRET_KEY", "DATABASE_URL", "TRUSTED_PROXY_COUNT"} <= read.keys()  # the parse still finds them
    set_, shown, lines = example_lines()
    assert set_.keys().isdisjoint(shown), "a variable both set and shown commented out"
    # DJANGO_SETTINGS_MODULE is read by Django (config/asgi.py and manage.py default it to the dev settings).
    assert set_.keys() | shown == read.keys() | {"DJANGO_SETTINGS_MODULE"}
    assert set_["DJANGO_SETTINGS_MODULE"] == "config.production"
    required = {name for name, needed in read.items() if needed} | {"DATABASE_URL", "REDIS_URL"}
    assert required <= set_.keys(), "a variable production cannot do without is only shown commented out"
    for index, line in enumerate(lines):
        if re.fullmatch(r"#?[A-Z][A-Z0-9_]*=.*", line):
            assert lines[index - 1].startswith("# "), f"{line!r} comes without its comment"


def test_the_environment_example_loads_the_production_settings_on_postgresql_and_redis() -> None:
    set_, _, _ = example_lines()
    probe = ("import json, django; django.setup(); from django.conf import settings as s; "
             "print(json.dumps([s.DEBUG, s.DATABASES['default']['ENGINE'], s.CHANNEL_LAYERS['default']['BACKEND'], "
             "s.ALLOWED_HOSTS, s.SECURE_PROXY_SSL_HEADER]))")
    base = {k: v for k, v in os.environ.items() if k not in set_ and k != "DEBUG"}
    result = subprocess.run([sys.executable, "-c", probe], env={**base, **set_}, capture_output=True, text=True,
                            cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [
        False, "django.db.backends.postgresql", "channels_redis.core.RedisChannelLayer", ["club.example.org"],
        ["HTTP_X_FORWARDED_PROTO", "https"],
    ]


def test_the_nginx_site_is_the_one_the_services_test_and_the_bench_run() -> None:
    from bench import nginx as bench_nginx
    from tests.services import test_behind_nginx

    assert test_behind_nginx.SITE_CONF == NGINX_SITE
    assert bench_nginx.SITE_CONF == NGINX_SITE


def test_the_nginx_site_sets_the_clients_address_and_sends_to_the_ports_deploy_readme_starts() -> None:
    site = "\n".join(line.split("#", 1)[0] for line in NGINX_SITE.read_text().splitlines())
    assert re.search(r"proxy_set_header\s+X-Forwarded-For\s+\$remote_addr;", site)
    assert "proxy_add_x_forwarded_for" not in site  # appended, the left-most entry would be the client's own
    assert re.search(r"proxy_set_header\s+Upgrade\s+\$http_upgrade;", site)
    upstream = re.search(r"upstream cardclub_daphne \{(.*?)\}", site, re.S)
    assert upstream
    ports = re.findall(r"server 127\.0\.0\.1:(\d+);", upstream.group(1))
    started = re.search(r"systemctl enable --now ((?:cardclub-daphne@\d+ ?)+)", (DEPLOY / "README.md").read_text())
    assert started
    assert ports == re.findall(r"@(\d+)", started.group(1)) and len(ports) >= 2


BACKUP_UNIT = DEPLOY / "systemd" / "cardclub-backup.service"
BACKUP_TIMER = DEPLOY / "systemd" / "cardclub-backup.timer"


def test_the_nightly_backup_runs_as_the_site_with_its_environment_and_may_write_only_the_backups() -> None:
    daphne, backup = unit(DAPHNE_UNIT)["Service"], unit(BACKUP_UNIT)["Service"]
    home = one(backup, "WorkingDirectory")
    for key in ("WorkingDirectory", "User", "EnvironmentFile"):
        assert one(backup, key) == one(daphne, key)  # the database the site uses, not the embedded default
    steps = [shlex.split(command) for command in backup["ExecStart"]]
    assert [step[:2] for step in steps] == [[f"{home}/.venv/bin/python", "manage.py"]] * 2
    assert [step[2] for step in steps] == ["backup", "check_books"]  # a failed backup stops the oneshot first
    assert one(backup, "Type") == "oneshot" and one(backup, "ProtectSystem") == "strict"
    shown = dict(re.findall(r"#([A-Z_]+)=(.*)", ENV_EXAMPLE.read_text()))
    assert backup["ReadWritePaths"] == [shown["BACKUP_DIR"]]
    assert shown["BACKUP_DIR"] == f"{home}/{Path(settings.BACKUP_DIR).relative_to(settings.BASE_DIR)}"


def test_the_backup_timer_starts_it_every_night_and_catches_up_after_a_night_off() -> None:
    timer = unit(BACKUP_TIMER)
    assert one(timer["Timer"], "OnCalendar") == "*-*-* 03:30" and one(timer["Timer"], "Persistent") == "true"
    assert "Unit" not in timer["Timer"]  # so it starts the service of its own name
    assert BACKUP_TIMER.with_suffix(".service").exists()
    assert one(timer["Install"], "WantedBy") == "timers.target"
