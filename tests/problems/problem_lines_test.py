"""Problem lines end to end (docs/usage.md "Problem lines").

usage: problem_lines_test.py INFINICTS REFERENCE_DIR FAULT_DIR WORK_DIR

0. The default run's cases (id and clauses, every mode) are those of default_cases.tsv.gz,
   the list from before the problems became data, plus the cases of operators it does not
   name (a new row brings its own). A change meant to add or rename cases of a listed
   operator refreshes it:
     infinicts list --mode conformance,accuracy,perf --long | cut -f1,2 | gzip -9n \
       > tests/problems/default_cases.tsv.gz
1. Every case of the op suite that takes a problem parses back: its problem line, fed to
   `list --cases`, declares a case of the same id with the same parameters.
2. The issue's example line runs in every mode and passes on the reference.
3. Bad lines exit 2 naming the line and what is wrong.
4. A failing case's rerun line (a default run's, through a fault) carries its problem line
   and, pasted, fails that one case again.
5. Every case file the suite compiles in (suites/op/cases/<subject>.<set>.cases) runs as it
   is under --cases: its lines declare, in file order, the cases the default run declares
   from it (accuracy/matches_oracle, or conformance/stream_order for a conformance file).
"""
import gzip
import json
import os
import shlex
import sys

import cli_check
from cli_check import check, expect_refusals, run

INFINICTS, REFERENCE, FAULT, WORK = sys.argv[1:5]
cli_check.work = WORK


def listed_cases(args):
    done = run([INFINICTS, "list", "--long"] + args)
    if done.returncode != 0:
        raise SystemExit("list %s exited %d: %s" % (args, done.returncode, done.stderr))
    cases = {}
    for line in done.stdout.splitlines():
        fields = line.split("\t")
        cases[fields[0]] = json.loads(fields[2])
    return cases


def default_cases_unchanged():
    done = run([INFINICTS, "list", "--mode", "conformance,accuracy,perf", "--long"])
    check(done.returncode == 0, "list exited %d: %s" % (done.returncode, done.stderr))
    now = ["\t".join(line.split("\t")[:2]) for line in done.stdout.splitlines()]
    listed = os.path.join(os.path.dirname(os.path.abspath(__file__)), "default_cases.tsv.gz")
    before = gzip.open(listed, "rt").read().splitlines()
    check(len(before) > 0, "%s lists no case" % listed)
    def subject(line):  # "op.gemm.accuracy/..." -> "op.gemm"
        return ".".join(line.split("\t")[0].split(".")[:2])

    listed_subjects = {subject(line) for line in before}
    gone = sorted(set(before) - set(now))
    new = sorted(set(now) - set(before))
    added = sorted({subject(line) for line in new} - listed_subjects)
    new = [line for line in new if subject(line) in listed_subjects]
    print("default cases: %d now, %d listed; %d gone, %d new; operators not listed: %s"
          % (len(now), len(before), len(gone), len(new), ", ".join(added) or "none"), flush=True)
    for line in gone[:5]:
        print("  gone: " + line)
    for line in new[:5]:
        print("  new:  " + line)
    check(not gone and not new and len(set(now)) == len(now), "the default run's cases changed")


def round_trip():
    modes = ["--mode", "conformance,accuracy"]
    compiled = listed_cases(["--suite", "op"] + modes)
    with_problem = {i: p for i, p in compiled.items() if "problem" in p and "variant" not in p}
    lines = sorted({"%s %s" % (i.split(".")[1], p["problem"]) for i, p in with_problem.items()})
    subjects = {i.split(".")[1] for i in with_problem}
    # One listing per operator: a listing of every line at once declares tens of thousands
    # of cases, slow on a loaded machine.
    parsed = {}
    for subject in sorted(subjects):
        cases_file = os.path.join(WORK, "%s.cases" % subject)
        with open(cases_file, "w") as out:
            out.write("# every problem of %s the op suite compiles in\n" % subject)
            out.write("\n".join(l for l in lines if l.split(" ", 1)[0] == subject) + "\n")
        parsed.update(listed_cases(["--cases", cases_file] + modes))
    missing = [i for i in with_problem if i not in parsed]
    changed = [i for i in with_problem if i in parsed and parsed[i] != with_problem[i]]
    print("round trip: %d cases of %d operators from %d lines; %d missing, %d changed"
          % (len(with_problem), len(subjects), len(lines), len(missing), len(changed)), flush=True)
    check(len(subjects) >= 40, "only %d operators declare problem lines" % len(subjects))
    check(not missing, "ids lost in the round trip, e.g. %s" % missing[:3])
    for i in changed[:3]:
        print("  %s\n    compiled %s\n    parsed   %s" % (i, with_problem[i], parsed[i]))
    check(not changed, "parameters changed in the round trip, e.g. %s" % changed[:3])


def example_line_runs():
    report = os.path.join(WORK, "example.json")
    done = run([INFINICTS, "run", "--backend", REFERENCE, "--device", "cpu", "--op", "rms_norm", "--problem",
                "f16 w=f32 7x31 x=padded eps=1e-6", "--mode", "conformance,accuracy,perf",
                "--perf-budget-ms", "5", "--quiet", "--out", report])
    check(done.returncode == 0, "the example line exited %d: %s%s" % (done.returncode, done.stdout, done.stderr))
    if done.returncode != 0:
        return
    results = json.load(open(report))["results"]
    modes = sorted({r["mode"] for r in results})
    check(modes == ["accuracy", "conformance", "perf"], "the example ran modes %s" % modes)
    check(all(r["id"].startswith("op.rms_norm.") for r in results), "the example ran another operator's cases")
    check(all(r["status"] == "pass" for r in results),
          "the example did not pass: %s" % [(r["id"], r["status"]) for r in results if r["status"] != "pass"])
    problems = {r["params"].get("problem") for r in results}
    check(problems == {"f16 7x31 x=pad eps=1e-06"}, "the example's cases hold lines %s" % problems)
    perf = [r for r in results if r["mode"] == "perf"]
    check(len(perf) == 1 and perf[0]["metrics"].get("gflops", 0) > 0, "the example's perf case has no gflops")
    print("example line: %d cases pass" % len(results), flush=True)


def bad_lines_refused():
    cases_file = os.path.join(WORK, "bad.cases")
    with open(cases_file, "w") as out:
        out.write("rms_norm f32 4x5\nrms_norm f32 4x5 colour=red\n")
    refusals = [
        (["--op", "rms_norm", "--problem", "f32 4x5 colour=red"], "no field colour"),
        (["--op", "rms_norm", "--problem", "f32 5 x=trans"], "f32 5 x=trans"),
        (["--op", "rms_norm", "--problem", "f32 4x5 eps=small"], "eps=small"),
        (["--op", "rms_norm", "--problem", "f32 4x5 sideways"], "'sideways'"),
        (["--op", "conv", "--problem", "f64 input=13x11 kernel=1x3x3"], "kernel has 3 entries"),
        # An extent that would wrap below zero (a huge broadcast output that never ends).
        (["--op", "conv", "--problem", "f32 input=2 kernel=5 pads=0 strides=1 dilations=1 y=bcast_last"],
         "reaches past the padded input"),
        # Rules between fields the declarations' ranges cannot say.
        (["--op", "attention", "--problem", "f16 n_q=6 n_kv=4"], "n_kv=4 does not divide n_q=6"),
        (["--op", "causal_softmax", "--problem", "f32 13x8"], "total >= seq"),
        (["--op", "topkrouter", "--problem", "f32 topk=0"], "outside [1, 256]"),
        (["--op", "no_such_op", "--problem", "f32 4x5"], "no operator no_such_op"),
        (["--problem", "f32 4x5"], "--problem needs --op"),
        (["--op", "rms_norm"], "give the problem too"),
        (["--suite", "rt", "--op", "rms_norm", "--problem", "f32 4x5"], "only the op suite"),
        (["--cases", cases_file], "bad.cases:2"),
    ]
    expect_refusals([INFINICTS, "run", "--backend", REFERENCE, "--device", "cpu", "--quiet", "--out",
                     os.path.join(WORK, "refused.json")], refusals)
    print("bad lines: %d refusals checked" % len(refusals), flush=True)


def rerun_line_carries_problem():
    fault = {"INFINICTS_FAULT": "rms_norm_epsilon_outside_sqrt"}
    done = run([INFINICTS, "run", "--backend", FAULT, "--device", "cpu", "--suite", "op", "--mode", "accuracy",
                "--filter", "op.rms_norm.accuracy/*", "--quiet", "--out", os.path.join(WORK, "fault.json")], fault)
    check(done.returncode == 1, "the fault run exited %d, not 1" % done.returncode)
    reruns = [l.split("rerun: ", 1)[1] for l in done.stdout.splitlines() if l.strip().startswith("rerun: ")]
    check(reruns and "--problem" in reruns[0], "no rerun line with --problem: %s" % reruns[:1])
    if not reruns:
        return
    rerun = reruns[0]
    elsewhere = os.path.join(WORK, "elsewhere")
    os.makedirs(elsewhere, exist_ok=True)
    again = run(["bash", "-c", rerun + " --out rerun.json"], fault, cwd=elsewhere)
    check(again.returncode == 1, "the pasted rerun line exited %d, not 1: %s" % (again.returncode, rerun))
    if again.returncode != 1:
        print(again.stdout, again.stderr)
        return
    results = json.load(open(os.path.join(elsewhere, "rerun.json")))["results"]
    wanted = shlex.split(rerun)[-1]
    check([r["id"] for r in results] == [wanted], "the rerun ran %s, not %s" % ([r["id"] for r in results], wanted))
    check(results[0]["status"] == "fail", "the rerun case ended %s" % results[0]["status"])
    print("rerun line: %s" % rerun, flush=True)


def case_files_run_as_given():
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "suites", "op", "cases")
    names = sorted(n for n in os.listdir(folder) if n.endswith(".cases"))
    check(len(names) >= 2, "no case files in %s" % folder)
    modes = ["--mode", "conformance,accuracy"]
    default_ids = list(listed_cases(["--suite", "op"] + modes))
    for name in names:
        subject, case_set = name.split(".")[:2]
        test = {"accuracy": "accuracy/matches_oracle/", "conformance": "conformance/stream_order/"}.get(case_set)
        check(test is not None, "%s names no set (accuracy or conformance)" % name)
        if test is None:
            continue
        prefix = "op.%s.%s" % (subject, test)
        given = [i for i in listed_cases(["--cases", os.path.join(folder, name)] + modes) if i.startswith(prefix)]
        compiled = [i for i in default_ids if i.startswith(prefix)]
        check(given and given == compiled,
              "%s under --cases declares %d %s cases, the default run %d (first apart: %s)"
              % (name, len(given), test, len(compiled),
                 next(((g, c) for g, c in zip(given, compiled) if g != c), None)))
    print("case files: %d run under --cases as the default run reads them" % len(names), flush=True)


os.makedirs(WORK, exist_ok=True)
default_cases_unchanged()
round_trip()
example_line_runs()
bad_lines_refused()
rerun_line_carries_problem()
case_files_run_as_given()
cli_check.finish("problem_lines")
