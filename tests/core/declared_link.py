#!/usr/bin/env python3
"""Every name a public header declares links from libfray.so (issue 42 item 4).

A program that uses a declared function or variable must link against the
shared library alone; a name declared in include/fray/ but defined without
FRAY_API (hidden) fails only at the user's link. This test asks clang for
every file-scope function and variable named fray_* that include/fray/*.h
declares (its JSON syntax tree, not a regular expression over C), writes a
program that takes the address of each, and links and runs it against
libfray.so. A name it cannot link is listed; so is an empty list (a broken
extraction must not pass).

usage: declared_link.py INCLUDE_DIR LIBFRAY_SO WORK_DIR [CFLAGS...]
"""
import json
import os
import shutil
import subprocess
import sys


def declared(include_dir, work):
    headers = sorted(h for h in os.listdir(os.path.join(include_dir, "fray")) if h.endswith(".h"))
    src = os.path.join(work, "all_headers.c")
    with open(src, "w") as f:
        for h in headers:
            f.write("#include <fray/%s>\n" % h)
    ast = subprocess.run(["clang", "-Xclang", "-ast-dump=json", "-fsyntax-only", "-std=c17",
                          "-I", include_dir, src], check=True, capture_output=True, text=True).stdout
    names = {}
    current = None
    # clang names a declaration's file only when it changes from the one before
    for d in json.loads(ast)["inner"]:
        loc = d.get("loc", {})
        f = loc.get("file") or loc.get("spellingLoc", {}).get("file") or loc.get("expansionLoc", {}).get("file")
        if f:
            current = f
        if d["kind"] not in ("FunctionDecl", "VarDecl") or d.get("storageClass") == "static":
            continue
        name = d.get("name", "")
        if name.startswith("fray") and current and os.sep + "fray" + os.sep in current:
            names[name] = (d["kind"], os.path.basename(current))
    return headers, names


def main():
    include_dir, lib, work = sys.argv[1:4]
    cflags = [a for a in sys.argv[4:] if a]
    if not shutil.which("clang"):
        print("declared_link: clang is needed to list the declarations (apt-get install clang)")
        return 1
    os.makedirs(work, exist_ok=True)
    headers, names = declared(include_dir, work)
    if len(names) < 100:
        print("declared_link: only %d declarations found in %d headers: extraction broken?" % (len(names), len(headers)))
        return 1
    prog = os.path.join(work, "use_every_name.c")
    with open(prog, "w") as f:
        for h in headers:
            f.write("#include <fray/%s>\n" % h)
        f.write("#include <stdio.h>\n\nstatic const void *const every_name[] = {\n")
        for n in sorted(names):
            f.write("\t(const void *)&%s,\n" % n)
        f.write("};\n\nint main(void)\n{\n\tsize_t n = 0;\n"
                "\tfor (size_t i = 0; i < sizeof every_name / sizeof every_name[0]; i++)\n"
                "\t\tn += every_name[i] != NULL;\n"
                "\tprintf(\"%zu\\n\", n);\n\treturn 0;\n}\n")
    exe = os.path.join(work, "use_every_name")
    libdir = os.path.dirname(os.path.abspath(lib))
    r = subprocess.run(["cc", "-std=c17", "-w"] + cflags + ["-I", include_dir, prog, "-o", exe,
                        "-L", libdir, "-Wl,-rpath," + libdir, "-l:" + os.path.basename(lib)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        missing = sorted({n for n in names if "`%s'" % n in r.stderr or "'%s'" % n in r.stderr})
        print("declared_link: %d of %d declared names do not link from %s:" % (len(missing), len(names), lib))
        for n in missing:
            print("  %s (%s, %s)" % (n, names[n][0], names[n][1]))
        if not missing:
            print(r.stderr)
        return 1
    out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout.strip()
    if out != str(len(names)):
        print("declared_link: the program saw %s of %d names" % (out, len(names)))
        return 1
    print("declared_link: all %d names declared in include/fray/ link from %s" % (len(names), os.path.basename(lib)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
