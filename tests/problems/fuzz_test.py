"""`infinicts fuzz` end to end (docs/usage.md "Fuzzing").

usage: fuzz_test.py INFINICTS REFERENCE_DIR FAULT_DIR WORK_DIR

1. Every operator draws problems; the draws are problem lines the suite runs, the same for the
   same seed and others for another seed.
2. Against the reference, a round over every operator finds nothing, exits 0 and writes a
   report of the schema.
3. Against backends with a planted fault, fuzzing one operator finds the fault, shrinks it to
   a problem no larger than the one drawn nor than the smallest compiled-in case that catches
   it, and the printed rerun command fails that case again.
4. Bad flags exit 2 with their reason.
5. Interrupted (SIGTERM) while a round runs, it ends by the signal and leaves no working file.
"""
import json
import os
import shlex
import sys

import cli_check
from cli_check import check, expect_refusals, run

INFINICTS, REFERENCE, FAULT, WORK = (os.path.abspath(a) for a in sys.argv[1:5])
SUITE = os.path.join(os.path.dirname(INFINICTS), "infinicts-suite-op")
cli_check.work = WORK

# A fault each of a family a random problem reaches: a wrong formula at small values, a
# lost tail of long rows, a broadcast ignored, strides ignored.
FAULTS = [("rms_norm", "rms_norm_epsilon_outside_sqrt"), ("softmax", "row_reduction_drops_tail"),
          ("add", "add_ignores_broadcast"), ("log_softmax", "log_softmax_ignores_strides")]


def drawn(seed):
    done = run([SUITE, "--cts-draw", "all", "--cts-seed", str(seed), "--cts-count", "2"])
    check(done.returncode == 0, "--cts-draw exited %d: %s" % (done.returncode, done.stderr.strip()))
    return done.stdout.splitlines()


def draws_are_problems():
    lines = drawn(5)
    check(lines == drawn(5), "seed 5 drew other problems the second time")
    check(lines != drawn(6), "seeds 5 and 6 drew the same problems")
    listed = run([INFINICTS, "list", "--mode", "accuracy"]).stdout.split()
    subjects = {i.split(".")[1] for i in listed if i.startswith("op.")}
    drew = {line.split(" ", 1)[0] for line in lines}
    check(drew == subjects, "operators that drew no problem: %s" % sorted(subjects - drew))
    cases = os.path.join(WORK, "drawn.cases")
    with open(cases, "w") as f:
        f.write("\n".join(lines) + "\n")
    done = run([INFINICTS, "list", "--cases", cases, "--mode", "accuracy"])
    check(done.returncode == 0, "the drawn lines do not list: %s" % done.stderr.strip()[-2000:])
    print("draws: %d problems of %d operators, each a line the suite takes" % (len(lines), len(drew)), flush=True)


def report_reads(path):
    done = run([INFINICTS, "report", path, "--md", path + ".md"])
    check(done.returncode == 0, "%s does not read as a report: %s" % (path, done.stderr.strip()))
    return json.load(open(path))


def reference_passes():
    report = os.path.join(WORK, "reference.json")
    done = run([INFINICTS, "fuzz", "--backend", REFERENCE, "--device", "cpu", "--seed", "3", "--budget", "1s",
                "--draws", "1", "--out", report])
    check(done.returncode == 0, "fuzzing the reference exited %d: %s" % (done.returncode, done.stdout[-3000:]))
    if done.returncode != 2:
        fuzz = report_reads(report)["run"]["fuzz"]
        check(fuzz["rounds"] >= 1 and fuzz["problems"] >= 40, "one round drew %s problems" % fuzz["problems"])
        check(fuzz["findings"] == [], "the reference has findings: %s" % fuzz["findings"])
    print("reference: nothing found", flush=True)


def shape_size(line):
    """The product of every extent list in a line (bare or keyed)."""
    size = 1
    for token in line.split():
        value = token.split("=", 1)[-1]
        if "x" in value and all(p.isdigit() for p in value.split("x")):
            for p in value.split("x"):
                size *= int(p)
        elif value.isdigit():
            size *= max(1, int(value))
    return size


def smallest_fixed_catch(op, fault, env):
    """{(case kind, dtype): the fewest bytes (byte_count) of a compiled-in case of that kind and
    dtype the fault fails}, and the same under (case kind, None) for any dtype. A shrunk problem
    keeps its dtype, so it is held to the fixed cases of its dtype where one catches the fault."""
    report = os.path.join(WORK, fault + ".fixed.json")
    run([INFINICTS, "run", "--backend", FAULT, "--device", "cpu", "--quiet", "--out", report, "--filter",
         "op.%s.accuracy/matches_oracle/*,op.%s.conformance/in_place/*" % (op, op)], env)
    smallest = {}
    for result in json.load(open(report))["results"]:
        if result["status"] != "fail" or result["metrics"].get("byte_count") is None:
            continue
        kind = result["id"].split(".", 2)[2].split("/")
        kind = kind[0] + "/" + kind[1]
        for key in ((kind, result["params"].get("dtype")), (kind, None)):
            smallest[key] = min(smallest.get(key, float("inf")), result["metrics"]["byte_count"])
    return smallest


def faults_found_and_shrunk():
    for op, fault in FAULTS:
        report = os.path.join(WORK, fault + ".json")
        env = {"INFINICTS_FAULT": fault}
        done = run([INFINICTS, "fuzz", "--backend", FAULT, "--device", "cpu", "--op", op, "--seed", "1",
                    "--budget", "8s", "--out", report], env)
        check(done.returncode == 1, "%s: fuzzing %s exited %d, not 1: %s" % (fault, op, done.returncode,
                                                                             done.stdout[-2000:]))
        if done.returncode != 1:
            continue
        fuzz = report_reads(report)["run"]["fuzz"]
        findings = [f for f in fuzz["findings"] if f["operator"] == op]
        check(findings, "%s: no finding of %s" % (fault, op))
        fixed = smallest_fixed_catch(op, fault, env)
        results = report_reads(report)["results"]
        for finding in findings:
            check(shape_size(finding["shrunk"]) <= shape_size(finding["drawn"]),
                  "%s: shrunk %r is larger than drawn %r" % (fault, finding["shrunk"], finding["drawn"]))
            # No larger than the smallest compiled-in case that catches the fault (issue 37: the
            # fuzzer's answer must be as plain as the best fixed data).
            shrunk = [r for r in results if r["status"] == finding["status"] and finding["case"] + "/" in r["id"]]
            shrunk_bytes = min((r["metrics"].get("byte_count", float("inf")) for r in shrunk), default=float("inf"))
            dtype = shrunk[0]["params"].get("dtype") if shrunk else None
            fixed_bytes = fixed.get((finding["case"], dtype), fixed.get((finding["case"], None),
                                                                         min(fixed.values(), default=float("inf"))))
            check(shrunk_bytes <= fixed_bytes, "%s: the shrunk problem %r takes %s bytes, the smallest fixed case "
                  "catching it %s" % (fault, finding["shrunk"], shrunk_bytes, fixed_bytes))
            again = run(["bash", "-c", finding["rerun"] + " --quiet --out " + shlex.quote(report + ".rerun.json")], env)
            check(again.returncode == 1, "%s: the rerun line exited %d, not 1: %s" % (fault, again.returncode,
                                                                                    finding["rerun"]))
            print("%s: found after %.1f s, %d problems; shrunk in %d steps to %s %s (%s bytes; the smallest fixed "
                  "case catching it: %s)" % (fault, finding["found_after_s"], finding["problems_before"],
                                             finding["shrink_steps"], op, finding["shrunk"], shrunk_bytes, fixed_bytes),
                  flush=True)


def refusals():
    base = [INFINICTS, "fuzz", "--backend", REFERENCE, "--device", "cpu"]
    expect_refusals(base, [
        (["--budget", "soon"], "--budget wants a time"),
        (["--budget", "-5s"], "--budget wants a time"),
        (["--op", "no_such_op", "--budget", "1s"], "no operator no_such_op takes fuzzed problems"),
        (["--draws", "0"], "--draws"),
    ])
    expect_refusals([INFINICTS, "fuzz", "--backend", os.path.join(WORK, "nowhere"), "--device", "cpu", "--budget", "1s"],
                    [([], "nowhere")])


def interrupted():
    err = cli_check.interrupted_leaves_nothing(
        "fuzz", [INFINICTS, "fuzz", "--backend", REFERENCE, "--device", "cpu", "--op", "all", "--seed", "3",
                 "--budget", "600s", "--out", os.path.join(WORK, "interrupted.json")],
        "infinicts-problems-*")
    check("interrupted" in err, "the interrupted fuzzing does not say so: %s" % err[-500:])


os.makedirs(WORK, exist_ok=True)
draws_are_problems()
reference_passes()
faults_found_and_shrunk()
refusals()
interrupted()
cli_check.finish("fuzz")
