"""The repository's documents describe the code as it is: docs/ARCHITECTURE.md draws the
targets and arrows `swift package describe` shows, and no Markdown document links to a file
outside the repository or to one that does not exist."""
import json
import os
import pathlib
import re
import shutil
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent


def swift():
    return shutil.which("swift") or "/opt/swift/usr/bin/swift"


def documented_targets():
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    table = text.split("<!-- targets -->", 1)[1].split("<!-- /targets -->", 1)[0]
    targets = {}
    for line in table.strip().splitlines()[2:]:
        name, depends = [cell.strip() for cell in line.strip("|").split("|")]
        targets[name] = sorted(filter(None, (d.strip() for d in depends.split(","))))
    return targets


def test_architecture_draws_the_targets_swift_package_describe_shows():
    described = json.loads(subprocess.run(
        [swift(), "package", "describe", "--type", "json"], cwd=ROOT, check=True, capture_output=True, text=True,
        timeout=300).stdout)
    actual = {target["name"]: sorted(target.get("target_dependencies") or [])
              for target in described["targets"] if target["type"] != "test" and not target["name"].startswith("C")}
    assert documented_targets() == actual


def test_markdown_links_stay_inside_the_repository_and_resolve():
    broken = []
    documents = [path for path in ROOT.rglob("*.md")
                 if not any(part.startswith(".") or part == "node_modules" for part in path.relative_to(ROOT).parts)]
    for document in documents:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", document.read_text()):
            if re.match(r"^[a-z]+:", target):
                continue
            resolved = (document.parent / target).resolve()
            if not resolved.is_relative_to(ROOT) or not resolved.exists():
                broken.append(f"{document.relative_to(ROOT)}: {target}")
        for path in re.findall(r"`(\.\./[^`\s]+)`", document.read_text()):
            if not (document.parent / path).resolve().is_relative_to(ROOT):
                broken.append(f"{document.relative_to(ROOT)}: {path}")
    assert broken == []


def test_version_is_the_one_the_changelog_names_last():
    """One version: `latchkey --version` prints the version of CHANGELOG.md's latest release
    heading (`## [X.Y.Z] - YYYY-MM-DD`, the first one after `## [Unreleased]`)."""
    changelog = (ROOT / "CHANGELOG.md").read_text()
    headings = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d\d-\d\d))?$", changelog, re.M)
    assert headings and headings[0] == ("Unreleased", ""), headings
    released = [(version, date) for version, date in headings[1:]]
    assert released and all(re.fullmatch(r"\d+\.\d+\.\d+", version) and date for version, date in released), released
    binary = pathlib.Path(os.environ.get("LATCHKEY_BINARY", ROOT / ".build" / "release" / "latchkey"))
    printed = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60, check=True).stdout
    assert printed == f"latchkey {released[0][0]}\n"


def test_the_readme_opens_with_the_two_commands():
    """The README's first code block is `make run` and `make test`, and nothing else."""
    readme = (ROOT / "README.md").read_text()
    first_block = re.search(r"```[a-z]*\n(.*?)```", readme, re.S).group(1)
    commands = [line.split("#")[0].strip() for line in first_block.strip().splitlines()]
    assert commands == ["make run", "make test"]
    assert readme.index("```") < readme.index("\n## ")


def test_every_language_list_in_the_documents_is_the_servers():
    """A list of language codes in a document (`en|pt|es|ar`, `en/pt/es/ar`) names exactly the
    languages the server speaks, in its order: the CLI's help, made from the code's list, says which."""
    binary = ROOT / ".build" / "release" / "latchkey"
    help_text = subprocess.run([str(binary), "users", "--help"], capture_output=True, text=True, timeout=60).stdout
    languages = re.search(r"--locale ([a-z|]+)\]", help_text).group(1).split("|")
    assert "en" in languages
    wrong = []
    documents = [path for path in ROOT.rglob("*.md")
                 if not any(part.startswith(".") or part == "node_modules" for part in path.relative_to(ROOT).parts)]
    for document in documents:
        for listed in re.findall(r"(?<![A-Za-z0-9_-])([a-z]{2}(?:[|/][a-z]{2}){2,})(?![A-Za-z0-9_-])", document.read_text()):
            codes = re.split(r"[|/]", listed)
            if "en" in codes and codes != languages:
                wrong.append(f"{document.relative_to(ROOT)}: {listed}")
    assert wrong == []
