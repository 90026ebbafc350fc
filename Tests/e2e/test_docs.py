"""The repository's documents stand alone and match the tree: every file docs/ARCHITECTURE.md
names exists, every citation of docs/REFERENCE.md names one of its sections, and nothing cites
the old product contract outside the repository. Reads files only; no binary is needed."""
import re

from conftest import REPO

ARCHITECTURE = REPO / "docs" / "ARCHITECTURE.md"
REFERENCE = REPO / "docs" / "REFERENCE.md"
# A path into the tree as a document names it: in backticks, a link, or plain text.
TREE_PATH = re.compile(r"(?<![\w/.-])((?:Sources|Tests|scripts|docs|Plugins|examples)/[\w./+*-]*[\w*])")
# The contract these documents replaced was cited by this word (spelled in two parts so that
# this file does not cite it).
OLD_CONTRACT = re.compile(r"\b" + "SP" + "EC" + r"\b")
# A citation: `docs/REFERENCE.md, Links` or `docs/REFERENCE.md's Sync rules`, perhaps broken
# over two comment lines.
CITATION = re.compile(r"docs/REFERENCE\.md(?:, |'s )((?:[^\n]|\n[ \t]*(?:///|//|#)?[ \t]*){1,60})")
SEARCHED = ["Sources", "Tests", "scripts", "docs", "README.md"]


def searched_files():
    for root in SEARCHED:
        path = REPO / root
        for file in [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file()):
            if "Crashers" in file.parts or "__pycache__" in file.parts:
                continue
            try:
                yield file, file.read_text()
            except UnicodeDecodeError:
                continue


def named_paths(text):
    return sorted({match.rstrip(".") for match in TREE_PATH.findall(text)})


def test_the_architecture_names_paths_to_check():
    # Without paths named, the next test would pass on any text.
    assert len(named_paths(ARCHITECTURE.read_text())) >= 20


def test_every_path_the_architecture_names_exists():
    missing = [path for path in named_paths(ARCHITECTURE.read_text())
               if not (any(REPO.glob(path)) if "*" in path else (REPO / path).exists())]
    assert missing == [], f"docs/ARCHITECTURE.md names paths that do not exist: {missing}"


def package_targets():
    """Each source target of Package.swift (not test targets) with the targets it depends on."""
    text = (REPO / "Package.swift").read_text()
    targets = {}
    for start in re.finditer(r"\.(?:target|executableTarget)\(", text):
        declaration = enclosed(text, start.end() - 1, "(", ")")
        name = re.search(r'name:\s*"([^"]+)"', declaration).group(1)
        listed = re.search(r"dependencies:\s*\[", declaration)
        dependencies = enclosed(declaration, listed.end() - 1, "[", "]") if listed else ""
        targets[name] = set(re.findall(r'(?<!package: )"([^"]+)"', dependencies))
    return targets


def enclosed(text, opening, open_mark, close_mark):
    """The text from the bracket at `opening` to its matching close."""
    depth = 0
    for index in range(opening, len(text)):
        depth += {open_mark: 1, close_mark: -1}.get(text[index], 0)
        if depth == 0:
            return text[opening:index + 1]
    raise AssertionError(f"no {close_mark} closes the {open_mark} at {opening} of Package.swift")


def architecture_imports_table():
    """The rows of docs/ARCHITECTURE.md's `| target | imports |` table."""
    lines = ARCHITECTURE.read_text().splitlines()
    start = lines.index("| target | imports |")
    rows = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        target, imports = [cell.strip() for cell in line.strip("|").split("|")]
        rows[target.strip("`")] = set(re.findall(r"`([^`]+)`", imports))
    return rows


def test_the_architecture_shows_the_dependencies_package_swift_declares():
    declared = package_targets()
    assert "MemoStore" in declared and "memo" in declared
    assert architecture_imports_table() == declared


def test_every_citation_of_the_reference_names_one_of_its_sections():
    headings = [line[3:].strip() for line in REFERENCE.read_text().splitlines() if line.startswith("## ")]
    assert len(headings) >= 20
    wrong = []
    for file, text in searched_files():
        for match in CITATION.finditer(text):
            cited = re.sub(r"\n[ \t]*(?:///|//|#)?[ \t]*", " ", match.group(1))
            if not any(cited.startswith(heading) for heading in headings):
                line = text.count("\n", 0, match.start()) + 1
                wrong.append(f"{file.relative_to(REPO)}:{line}: {cited[:40]}")
    assert wrong == [], "citations of docs/REFERENCE.md that name no section of it:\n" + "\n".join(wrong)


def test_nothing_cites_a_contract_outside_the_repository():
    found = [f"{file.relative_to(REPO)}:{number}: {line.strip()}"
             for file, text in searched_files()
             for number, line in enumerate(text.splitlines(), 1) if OLD_CONTRACT.search(line)]
    assert found == [], "citations of a contract the repository does not hold:\n" + "\n".join(found)
