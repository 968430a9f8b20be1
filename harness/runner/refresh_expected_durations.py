#!/usr/bin/env python3
"""Rewrites harness/runner/expected_durations.json, the table --shard balances by, from the
reports of full runs: the mean duration of each test (a case id up to its parameters) over
every case of it in every report given.

    python3 harness/runner/refresh_expected_durations.py REPORT.json... [--out FILE]

Tests that no report given holds keep their figure from the table as it was (so a refresh from
conformance and accuracy runs keeps the perf figures); a test the table lacks is balanced by
the mean of its subject and mode.
"""
import argparse
import json
import os
import sys


def test_of_id(case_id):
    """'op.gemm.accuracy/matches_oracle/f16/m1' -> 'op.gemm.accuracy/matches_oracle'."""
    parts = case_id.split("/")
    return "/".join(parts[:2])


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("reports", nargs="+", help="reports of `infinicts run`")
    parser.add_argument("--out", default=os.path.join(here, "expected_durations.json"))
    args = parser.parse_args()

    sums = {}
    hosts = set()
    for path in args.reports:
        with open(path, encoding="utf-8") as file:
            report = json.load(file)
        host = report.get("host", {})
        hosts.add(f"{host.get('cpu', '?')}, {host.get('cores', '?')} cores")
        for result in report.get("results", []):
            if result.get("status") in ("crash", "timeout"):
                continue  # a killed case's time says nothing of the case
            total, count = sums.get(test_of_id(result["id"]), (0.0, 0))
            sums[test_of_id(result["id"])] = (total + float(result.get("duration_ms", 0)), count + 1)
    if not sums:
        sys.exit("refresh_expected_durations.py: the reports hold no finished case")

    kept = {}
    if os.path.exists(args.out):
        with open(args.out, encoding="utf-8") as file:
            kept = {test: ms for test, ms in json.load(file).get("tests", {}).items() if test not in sums}
    figures = {test: round(total / count, 1) for test, (total, count) in sums.items()}
    figures.update(kept)
    table = {
        "about": "Mean milliseconds per case of each test on the CPU reference, for --shard's balance; "
                 "rewritten by harness/runner/refresh_expected_durations.py from full runs",
        "measured_on": sorted(hosts),
        "tests": dict(sorted(figures.items())),
    }
    with open(args.out, "w", encoding="utf-8") as file:
        json.dump(table, file, indent=1)
        file.write("\n")
    print(f"{args.out}: {len(table['tests'])} tests, {len(kept)} of them kept as they were")


if __name__ == "__main__":
    main()
