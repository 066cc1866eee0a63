#!/usr/bin/env python3
"""The size rules of issue K: no function over 100 lines and no file over 650 lines in src/ and
grammar/. Prints each offender; exits 1 on any with --strict, 0 otherwise (report mode).

Dependency-free heuristic: comments, string and character literals are blanked; a function is
a brace block opened (outside any other function) after a signature: text since the last ';',
'{' or '}' that holds '(' and does not begin with a control keyword, namespace, class, struct,
enum, union or an assignment. Its length runs from the signature's first line to the line of
its closing brace. Lambdas and local classes count towards the function that holds them.

    tests/structure_check.py [--strict] [ROOT]
"""
import os
import re
import sys

MAX_FUNCTION = 100
MAX_FILE = 650
FOLDERS = ("src", "grammar")
EXTENSIONS = (".cpp", ".hpp", ".h", ".cc")
NOT_FUNCTION = re.compile(
    r"^(?:template\s*<[^>]*>\s*)?(?:if|for|while|switch|catch|do|else|try|namespace|class|struct|"
    r"enum|union|return|extern)\b")


def blank(text):
    """Comments, strings and characters as spaces; line ends kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = ")" + m.group(1) + '"'
            j = text.find(end, i)
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # a digit separator: 1'000
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(text):
    """(name, first line, length) of each function body in `text`."""
    code = blank(text)
    code = re.sub(r"^[ \t]*#.*$", "", code, flags=re.M)  # preprocessor lines
    found = []
    depth = 0
    stmt_start = 0  # offset where the current statement's text begins
    inside = None  # (depth at which the function's body opened, start offset, name)
    for i, c in enumerate(code):
        if c == "{":
            head = code[stmt_start:i].strip()
            if inside is None and "(" in head and not NOT_FUNCTION.match(head):
                before = head[: head.index("(")]
                if "=" not in before or "operator" in before:
                    name = re.findall(r"[\w:~]+(?:operator\s*\S+)?", before)
                    first = stmt_start + (len(code[stmt_start:i]) - len(code[stmt_start:i].lstrip()))
                    inside = (depth, first, name[-1] if name else "?")
            depth += 1
            stmt_start = i + 1
        elif c == "}":
            depth -= 1
            stmt_start = i + 1
            if inside is not None and depth == inside[0]:
                first_line = code.count("\n", 0, inside[1]) + 1
                last_line = code.count("\n", 0, i) + 1
                found.append((inside[2], first_line, last_line - first_line + 1))
                inside = None
        elif c == ";":
            stmt_start = i + 1
    return found


def offenders_in(root):
    offenders = []
    for folder in FOLDERS:
        for base, dirs, files in os.walk(os.path.join(root, folder)):
            dirs.sort()
            for f in sorted(files):
                if not f.endswith(EXTENSIONS):
                    continue
                path = os.path.join(base, f)
                rel = os.path.relpath(path, root)
                with open(path, encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
                lines = text.count("\n")
                if lines > MAX_FILE:
                    offenders.append(f"{rel}: {lines} lines (file over {MAX_FILE})")
                for name, line, length in functions(text):
                    if length > MAX_FUNCTION:
                        offenders.append(f"{rel}:{line}: {name}: {length} lines "
                                         f"(function over {MAX_FUNCTION})")
    return offenders


def self_test():
    """The checker finds what it must and nothing else, on a tree made for it."""
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "src"))
        body = "    int x = 0;\n"
        text = ("namespace n {\n"  # line 1
                "struct S {\n    void member() {\n" + body * 98 + "    }\n};\n"  # member: 100 lines
                "int f(int a,\n      int b) {\n" + body * 97 + "    return a; // { \"}\"\n}\n"  # 101
                "auto g = [] {\n    return '{';\n};\n"
                "}\n")
        with open(os.path.join(root, "src", "a.cpp"), "w") as fh:
            fh.write(text)
        with open(os.path.join(root, "src", "b.hpp"), "w") as fh:
            fh.write("// x\n" * 651)
        got = offenders_in(root)
        want = ["src/a.cpp:104: f: 101 lines (function over 100)",
                "src/b.hpp: 651 lines (file over 650)"]
        if got != want:
            print("structure_check self-test failed:", got, "!=", want)
            return 1
    print("structure_check self-test passed")
    return 0


def main(argv):
    if "--self-test" in argv:
        return self_test()
    strict = "--strict" in argv
    args = [a for a in argv if not a.startswith("--")]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    offenders = offenders_in(root)
    for o in offenders:
        print(o)
    print(f"structure_check: {len(offenders)} offender(s)"
          + ("" if strict or not offenders else " (report mode: not failing)"))
    return 1 if strict and offenders else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
