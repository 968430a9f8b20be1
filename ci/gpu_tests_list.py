#!/usr/bin/env python3
"""Turns `ctest --show-only=json-v1` into the GPU check's test list, so that the GPU machine
runs the tests without ctest: one line per test, tab-separated: name, working folder, its
environment as shell words (K=V ...; "-" for none), its command as shell words, its limit in
seconds. The build folder (argv[2]) reads @BUILD@: the bundle is unpacked elsewhere in the
dry run."""
import json
import shlex
import sys


def main():
    build = sys.argv[2].rstrip("/")
    with open(sys.argv[1]) as listing:
        tests = json.load(listing)["tests"]
    if not tests:
        sys.exit("gpu_tests_list: ctest selected no test")
    for test in tests:
        properties = {p["name"]: p["value"] for p in test.get("properties", [])}
        if properties.get("DISABLED"):
            continue
        if "command" not in test:
            sys.exit("gpu_tests_list: %s has no command (its binary is not built)" % test["name"])
        environment = " ".join(shlex.quote(pair) for pair in properties.get("ENVIRONMENT", [])) or "-"
        command = " ".join(shlex.quote(word) for word in test["command"])
        limit = int(float(properties.get("TIMEOUT", 120)))
        folder = properties.get("WORKING_DIRECTORY", ".")
        line = "\t".join([test["name"], folder, environment, command, str(limit)])
        print(line.replace(build, "@BUILD@"))


if __name__ == "__main__":
    main()
