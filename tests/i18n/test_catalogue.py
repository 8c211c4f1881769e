"""The German catalogue is whole and current: every entry translated, none fuzzy, it compiles, and extracting the
site's strings again (`make messages`) changes nothing, so no marked string is missing from it."""

from __future__ import annotations

import difflib
import re
import shlex
import shutil
import subprocess
from pathlib import Path

from django.conf import settings
from django.core.management import call_command

ROOT = Path(settings.BASE_DIR)
CATALOGUE = ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po"


def entries(text: str) -> list[dict[str, str]]:
    """The .po's entries: flags ("#, fuzzy"), msgctxt, msgid, msgid_plural and each msgstr, unquoted and joined."""
    found = []
    for block in re.split(r"\n\s*\n", text.strip()):
        entry: dict[str, str] = {"flags": ""}
        field = ""
        for line in block.splitlines():
            if line.startswith("#,"):
                entry["flags"] += line[2:]
            elif line.startswith("#"):
                continue
            elif match := re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) "(.*)"$', line):
                field = match.group(1)
                entry[field] = match.group(2)
            elif line.startswith('"') and field:
                entry[field] += line[1:-1]
        if "msgid" in entry:
            found.append(entry)
    return found


def test_the_parser_reads_what_it_must_check() -> None:
    sample = ('msgid ""\nmsgstr ""\n"Language: de\\n"\n\n#: a.py:1\n#, fuzzy, python-format\nmsgid "A %(x)s"\n'
              'msgstr "B %(x)s"\n\n#: b.py:2\nmsgid ""\n"long "\n"text"\nmsgstr ""\n\n'
              'msgid "one"\nmsgid_plural "many"\nmsgstr[0] "eins"\nmsgstr[1] ""\n')
    header, fuzzy, empty, plural = entries(sample)
    assert header["msgid"] == "" and "Language: de" in header["msgstr"]
    assert "fuzzy" in fuzzy["flags"] and fuzzy["msgstr"] == "B %(x)s"
    assert empty["msgid"] == "long text" and empty["msgstr"] == ""
    assert plural["msgstr[0]"] == "eins" and plural["msgstr[1]"] == ""


def test_every_entry_is_translated_and_none_is_fuzzy() -> None:
    found = entries(CATALOGUE.read_text(encoding="utf-8"))
    assert len(found) > 1
    header, messages = found[0], found[1:]
    assert header["msgid"] == "" and "Language: de\\n" in header["msgstr"]
    fuzzy = [entry["msgid"] for entry in found if "fuzzy" in entry["flags"]]
    assert not fuzzy, f"fuzzy entries (check the translation, then remove the flag): {fuzzy}"
    untranslated = [entry["msgid"] for entry in messages
                    if any(value == "" for key, value in entry.items() if key.startswith("msgstr"))]
    assert not untranslated, f"{len(untranslated)} entries without German: {untranslated[:20]}"


def test_the_catalogue_compiles_cleanly() -> None:
    """msgfmt's own checks: placeholders match their msgid's (python-format), plurals are whole, the header sound."""
    run = subprocess.run(["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(CATALOGUE)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "untranslated" not in run.stderr and "fuzzy" not in run.stderr, run.stderr


def makemessages_arguments() -> list[str]:
    """The options `make messages` gives makemessages (the Makefile's MESSAGE_SOURCES): this extracts what it does."""
    makefile = (ROOT / "Makefile").read_text()
    found = re.search(r"^MESSAGE_SOURCES := ((?:.*\\\n)*.*)$", makefile, re.M)
    assert found, "the Makefile's MESSAGE_SOURCES"
    return shlex.split(found.group(1).replace("\\\n", " "))


def without_creation_date(text: str) -> str:
    return re.sub(r'^"POT-Creation-Date: .*\\n"$', "", text, flags=re.M)


def test_extracting_again_leaves_the_catalogue_unchanged(tmp_path: Path, monkeypatch, settings) -> None:
    """Run on a copy: the project's sources linked into a temporary directory with a copy of locale/, so the real
    catalogue is never written, even when this fails. A string marked but not in the catalogue, a catalogue entry
    whose string is gone, or a source reference that moved all show here as a difference."""
    assert shutil.which("xgettext"), "makemessages needs xgettext: Debian's gettext package (.ci/run installs it)"
    arguments = makemessages_arguments()
    for entry in ROOT.iterdir():
        if entry.name == "locale" or entry.name.startswith("."):
            continue
        (tmp_path / entry.name).symlink_to(entry)
    shutil.copytree(ROOT / "locale", tmp_path / "locale", ignore=shutil.ignore_patterns("*.mo"))
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    monkeypatch.chdir(tmp_path)
    call_command("makemessages", *arguments, locale=["de"], symlinks=True, verbosity=0)
    extracted = (tmp_path / "locale" / "de" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    current = CATALOGUE.read_text(encoding="utf-8")
    difference = list(difflib.unified_diff(without_creation_date(current).splitlines(),
                                           without_creation_date(extracted).splitlines(), "catalogue", "extracted",
                                           lineterm="", n=1))
    assert not difference, ("the catalogue is not what `make messages` makes of the sources: run it and translate"
                            " what it adds\n" + "\n".join(difference[:80]))
