"""`infinicts run --against` end to end (docs/usage.md "Two backends side by side").

usage: side_by_side_test.py INFINICTS REFERENCE_DIR FAULT_DIR WORK_DIR

1. The reference against itself: every side-by-side case passes with no difference, the perf
   cases carry the other side's median and speedup, both reports are written and read.
2. A backend with a planted fault against the reference: the side-by-side cases fail on the
   problems the oracle's cases fail on, name both backends, and their rerun line fails again.
3. The other backend on a device of its own (--against-device-ids).
4. A problem line runs side by side; bad uses exit 2.
5. Interrupted (SIGTERM) while a suite runs, it ends by the signal and leaves no working file.
"""
import json
import os
import shlex
import sys

import cli_check
from cli_check import check, expect_refusals, run

INFINICTS, REFERENCE, FAULT, WORK = (os.path.abspath(a) for a in sys.argv[1:5])
cli_check.work = WORK


def report_reads(path):
    done = run([INFINICTS, "report", path, "--md", path + ".md"])
    check(done.returncode == 0, "%s does not read as a report: %s" % (path, done.stderr.strip()))
    return json.load(open(path))


def by_test(report, test):
    """{problem part of the id: result} of one test's cases."""
    marker = "/" + test + "/"
    return {r["id"].split(marker, 1)[1]: r for r in report["results"] if marker in r["id"]}


def reference_against_itself():
    out = os.path.join(WORK, "itself.json")
    done = run([INFINICTS, "run", "--backend", REFERENCE, "--against", REFERENCE, "--device", "cpu", "--quiet",
                "--mode", "accuracy,perf", "--filter", "op.rms_norm.*,op.topksoftmax.accuracy/*", "--out", out])
    check(done.returncode == 0, "the reference against itself exited %d: %s" % (done.returncode, done.stdout[-3000:]))
    if done.returncode == 2:
        return
    report = report_reads(out)
    other = report_reads(os.path.join(WORK, "itself.against.json"))
    against = report["run"].get("against", {})
    check(against.get("report", "").endswith("itself.against.json") and against.get("exit_code") == 0,
          "run.against does not name the other side: %s" % against)
    oracle, side = by_test(report, "matches_oracle"), by_test(report, "matches_against")
    check(side and set(side) == set(oracle), "side-by-side problems differ from the oracle's: %s" %
          sorted(set(side) ^ set(oracle))[:5])
    for problem, result in side.items():
        check(result["status"] == "pass" and result["metrics"].get("against_max_abs_err") == 0,
              "%s: %s %s" % (result["id"], result["status"], result["metrics"]))
    other_ids = [r["id"] for r in other["results"]]
    check(other_ids and all("/matches_against/" in i or ".perf/" in i for i in other_ids),
          "the other side ran cases without two sides: %s" % [i for i in other_ids if ".perf/" not in i and
                                                               "/matches_against/" not in i][:3])
    perf = [r for r in report["results"] if r["mode"] == "perf" and r["status"] == "pass"]
    check(perf and all(r["metrics"].get("speedup_vs_against", 0) > 0 and
                       r["metrics"].get("against_time_ms_median", 0) > 0 for r in perf),
          "perf cases without the other side's figures: %s" % [r["id"] for r in perf][:3])
    check("perf side by side" in done.stdout, "no side-by-side perf table printed")
    both = run([INFINICTS, "compare", os.path.join(WORK, "itself.against.json"), out])
    check(both.returncode in (0, 1) and "%d cases timed in both" % len(perf) in both.stdout,
          "compare does not put the two sides' perf in one table: %s" % both.stdout[-1500:])
    print("itself: %d side-by-side cases equal, %d perf cases side by side" % (len(side), len(perf)), flush=True)


def fault_against_reference():
    out = os.path.join(WORK, "fault.json")
    env = {"INFINICTS_FAULT": "gemm_ignores_beta"}
    done = run([INFINICTS, "run", "--backend", FAULT, "--against", REFERENCE, "--device", "cpu", "--quiet",
                "--mode", "accuracy", "--filter", "op.gemm.*", "--out", out], env)
    check(done.returncode == 1, "the fault against the reference exited %d, not 1: %s" % (done.returncode,
                                                                                         done.stdout[-2000:]))
    if done.returncode != 1:
        return
    report = report_reads(out)
    failing = lambda results: {p for p, r in results.items() if r["status"] == "fail"}
    oracle, side = failing(by_test(report, "matches_oracle")), failing(by_test(report, "matches_against"))
    check(side and side == oracle, "side by side fails %d problems, the oracle %d; apart: %s" %
          (len(side), len(oracle), sorted(side ^ oracle)[:4]))
    result = next((r for r in report["results"] if "/matches_against/" in r["id"] and r["status"] == "fail"), None)
    if result is None:
        return
    check(FAULT in result["message"] and REFERENCE in result["message"] and "OP-ACC-2" in result["message"],
          "the failure does not name both backends: %s" % result["message"][:600])
    rerun = [line[len("rerun: "):] for line in result["message"].splitlines() if line.startswith("rerun: ")]
    check(rerun and "--against" in rerun[0], "no rerun line with --against: %s" % rerun[:1])
    if rerun:
        again = run(["bash", "-c", rerun[0] + " --quiet --out " + shlex.quote(os.path.join(WORK, "rerun.json"))], env)
        check(again.returncode == 1, "the pasted rerun line exited %d, not 1: %s" % (again.returncode, rerun[0]))
    print("fault: %d problems fail side by side, as against the oracle" % len(side), flush=True)


def other_devices():
    """--against-device-ids: the other backend runs on its own device (here the CPU reference's
    device 1 against device 0), and its report says so."""
    out = os.path.join(WORK, "devices.json")
    done = run([INFINICTS, "run", "--backend", REFERENCE, "--device", "cpu", "--device-ids", "0", "--against",
                REFERENCE, "--against-device", "cpu", "--against-device-ids", "1", "--quiet", "--mode", "accuracy",
                "--op", "rms_norm", "--problem", "f32 4x33", "--out", out])
    check(done.returncode == 0, "devices 0 against 1 exited %d: %s" % (done.returncode, done.stdout[-2000:]))
    if done.returncode == 0:
        mine, theirs = report_reads(out), report_reads(os.path.join(WORK, "devices.against.json"))
        check(mine["backend"]["device_ids"] == [0] and theirs["backend"]["device_ids"] == [1],
              "device ids %s against %s, not [0] against [1]" % (mine["backend"]["device_ids"],
                                                                theirs["backend"]["device_ids"]))
    print("other devices: ok", flush=True)


def problem_line_and_refusals():
    out = os.path.join(WORK, "line.json")
    done = run([INFINICTS, "run", "--backend", REFERENCE, "--against", REFERENCE, "--device", "cpu", "--quiet",
                "--mode", "accuracy", "--op", "softmax", "--problem", "f32 3x4097 axis=1", "--out", out])
    check(done.returncode == 0, "a problem line side by side exited %d: %s" % (done.returncode, done.stdout[-2000:]))
    if done.returncode == 0:
        side = by_test(report_reads(out), "matches_against")
        check(len(side) == 1 and all(r["status"] == "pass" for r in side.values()),
              "the problem line's side-by-side case: %s" % side)
    expect_refusals([INFINICTS, "run", "--backend", REFERENCE, "--device", "cpu", "--quiet"], [
        (["--against", REFERENCE, "--mode", "conformance"], "runs neither"),
        (["--against", REFERENCE, "--out", "-"], "give --out a file"),
        (["--against", os.path.join(WORK, "nowhere"), "--out", os.path.join(WORK, "x.json")], "nowhere"),
        (["--against-device", "cpu"], "give --against"),
        (["--against", REFERENCE, "--against-device", "warp9", "--out", os.path.join(WORK, "y.json")],
         "unknown device 'warp9'"),
    ])
    print("problem line and refusals: ok", flush=True)


os.makedirs(WORK, exist_ok=True)
reference_against_itself()
fault_against_reference()
other_devices()
problem_line_and_refusals()
cli_check.interrupted_leaves_nothing(
    "against", [INFINICTS, "run", "--backend", REFERENCE, "--against", REFERENCE, "--device", "cpu", "--quiet",
                "--mode", "accuracy", "--op", "gemm", "--problem", "f32 m=1000 n=1000 k=1000",
                "--out", os.path.join(WORK, "interrupted.json")],
    "infinicts-cases-*")
cli_check.finish("side by side")
