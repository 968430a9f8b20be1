"""Collective sweeps end to end (docs/usage.md "Collective sweeps").

usage: collective_sweep_test.py INFINICTS REFERENCE_DIR FAULT_DIR WORK_DIR

1. --coll/--min-bytes/--max-bytes/--step-factor list nccl-tests' sizes.
2. Every reduction sweeps AllReduce on the reference and passes, timed --iters times after
   --warmup warm-up iterations.
3. A backend computing AVG as SUM fails the AVG sweep, one multiplying rank 0 in twice fails
   the PROD sweep, and a failing case's rerun line (a sweep of its one size), pasted, fails
   that case again.
4. Bad sweep flags exit 2 with their reason.
"""
import json
import os
import shlex
import sys

import cli_check
from cli_check import check, expect_refusals, run

INFINICTS, REFERENCE, FAULT, WORK = sys.argv[1:5]
cli_check.work = WORK


def listed(args):
    done = run([INFINICTS, "list"] + args)
    check(done.returncode == 0, "list %s exited %d: %s" % (args, done.returncode, done.stderr.strip()))
    return done.stdout.split()


def sizes_listed():
    ids = listed(["--coll", "all_reduce", "--min-bytes", "8", "--max-bytes", "1K"])
    check(ids == ["ccl.all_reduce.perf/bandwidth/sum/f32/ranks_all/bytes_%d" % (8 << i) for i in range(8)],
          "8..1K by 2 listed %s" % ids)
    ids = listed(["--coll", "reduce_scatter", "--min-bytes", "1K", "--max-bytes", "1M", "--step-factor", "32",
                  "--dtype", "bf16", "--reduce", "max"])
    check(ids == ["ccl.reduce_scatter.perf/bandwidth/max/bf16/ranks_all/bytes_%d" % b for b in (1024, 32768, 1048576)],
          "1K..1M by 32 listed %s" % ids)
    ids = listed(["--coll", "all", "--min-bytes", "4K", "--max-bytes", "4K"])
    check(len(ids) == 6 and all(i.endswith("/bytes_4096") for i in ids), "--coll all listed %s" % ids)
    print("sizes: listed as nccl-tests steps them", flush=True)


def reductions_pass():
    for op in ["sum", "prod", "max", "min", "avg"]:
        report = os.path.join(WORK, "sweep_%s.json" % op)
        done = run([INFINICTS, "run", "--backend", REFERENCE, "--device", "cpu", "--coll", "all_reduce",
                    "--min-bytes", "8", "--max-bytes", "64K", "--step-factor", "8", "--reduce", op, "--iters", "7",
                    "--warmup", "2", "--quiet", "--out", report])
        check(done.returncode == 0, "the %s sweep exited %d: %s" % (op, done.returncode, done.stdout[-2000:]))
        if done.returncode != 0:
            continue
        results = json.load(open(report))["results"]
        check(len(results) == 5, "the %s sweep ran %d cases, not 5 (8 to 64K by 8)" % (op, len(results)))
        for r in results:
            check(r["status"] == "pass" and r["params"].get("op") == op, "%s: %s" % (r["id"], r["status"]))
            check(r["metrics"].get("iterations") == 7, "%s timed %s iterations, not 7" % (r["id"], r["metrics"].get("iterations")))
            check(r.get("timing", {}).get("warmup_iterations") == 2, "%s warmed up %s times, not 2"
                  % (r["id"], r.get("timing", {}).get("warmup_iterations")))
            check(r["metrics"].get("busbw_gbytes_per_s", 0) > 0, "%s has no busbw" % r["id"])
    print("reductions: sum, prod, max, min, avg pass", flush=True)


def faults_caught():
    for fault, op in [("avg_as_sum", "avg"), ("prod_counts_rank_0_twice", "prod")]:
        env = {"INFINICTS_FAULT": fault}
        done = run([INFINICTS, "run", "--backend", FAULT, "--device", "cpu", "--coll", "all_reduce", "--min-bytes", "8",
                    "--max-bytes", "4K", "--step-factor", "8", "--reduce", op, "--iters", "3", "--quiet", "--out",
                    os.path.join(WORK, "%s.json" % fault)], env)
        check(done.returncode == 1, "%s: the %s sweep exited %d, not 1" % (fault, op, done.returncode))
        reruns = [l.split("rerun: ", 1)[1] for l in done.stdout.splitlines() if l.strip().startswith("rerun: ")]
        check(bool(reruns) and "--coll all_reduce" in reruns[0], "%s: no rerun line sweeping: %s" % (fault, reruns[:1]))
        if not reruns:
            continue
        elsewhere = os.path.join(WORK, "elsewhere_" + fault)
        os.makedirs(elsewhere, exist_ok=True)
        again = run(["bash", "-c", reruns[0] + " --out rerun.json"], env, cwd=elsewhere)
        check(again.returncode == 1, "%s: the pasted rerun exited %d: %s" % (fault, again.returncode, reruns[0]))
        if again.returncode == 1:
            results = json.load(open(os.path.join(elsewhere, "rerun.json")))["results"]
            wanted = shlex.split(reruns[0])[-1]
            check([(r["id"], r["status"]) for r in results] == [(wanted, "fail")],
                  "%s: the rerun gave %s" % (fault, [(r["id"], r["status"]) for r in results]))
    print("faults: avg_as_sum and prod_counts_rank_0_twice fail their sweeps; reruns fail again", flush=True)


def bad_flags_refused():
    refusals = [
        (["--coll", "broadcast", "--reduce", "max"], "reduces nothing"),
        (["--coll", "all_to_all"], "no such collective"),
        (["--coll", "all_reduce", "--min-bytes", "0"], "--min-bytes 0"),
        (["--coll", "all_reduce", "--min-bytes", "1M", "--max-bytes", "1K"], "below --min-bytes"),
        (["--coll", "all_reduce", "--step-factor", "1"], "--step-factor 1"),
        (["--coll", "all_reduce", "--dtype", "f8"], "--dtype f8"),
        (["--coll", "all_reduce", "--reduce", "xor"], "--reduce xor"),
        (["--min-bytes", "8"], "need --coll"),
        (["--suite", "op", "--coll", "all_reduce"], "only the ccl suite"),
        (["--mode", "accuracy", "--coll", "all_reduce"], "--mode perf"),
        (["--coll", "all_reduce", "--op", "rms_norm", "--problem", "f32 4x5"], "one or the other"),
    ]
    expect_refusals([INFINICTS, "run", "--backend", REFERENCE, "--device", "cpu", "--quiet", "--out",
                     os.path.join(WORK, "refused.json")], refusals)
    print("bad flags: %d refusals checked" % len(refusals), flush=True)


os.makedirs(WORK, exist_ok=True)
sizes_listed()
reductions_pass()
faults_caught()
bad_flags_refused()
cli_check.finish("collective_sweep")
