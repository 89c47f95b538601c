"""The RNN section of docs/accuracy.md (imported by scripts/accuracy-report): ridge's time for
DeepBench's V100 RNN kernels (configs/calibration/data/deepbench-v100-rnn.csv, written by
scripts/deepbench-rnn-to-csv; also checked row by row with `ridge calibrate --check`) against the published forward times, with the shipped
descriptors `v100` (pure roofline) and `v100-calibrated`, whose calibration was fitted on
DeepBench's GEMM and convolution rows only: every RNN row is held out from it, and the
RNN rows are not fitted here.

Each row is timed by `ridge analyze` on a one-layer model file (its cell as an lstm, gru
or rnn layer, input_mode = "skip", input [T, H], --batch N, --dtype), two ways:
  sequence: the layer over its T steps, as ridge models it: weights read once per
            sequence (a persistent kernel's least traffic), one launch;
  per step: the same layer over one step, times T: each step a GEMM of N rows priced by
            the layer's op class (linear), weights read again every step, one launch per
            step, as cuDNN's standard algorithm (the one DeepBench ran) does.
"""
import csv
import json
import math
import os
import subprocess
import tempfile

DATA = "configs/calibration/data/deepbench-v100-rnn.csv"
NAMES = {"rnn": "vanilla (ReLU)", "lstm": "LSTM", "gru": "GRU"}


def model_text(cell, hidden, steps):
    relu = 'nonlinearity = "relu"\n' if cell == "rnn" else ""
    return ('name = "deepbench_%s"\n[input]\nshape = [%d, %d]\n[[layer]]\nname = "cell"\nop = "%s"\n'
            'hidden_size = %d\ninput_mode = "skip"\n%s' % (cell, steps, hidden, cell, hidden, relu))


def analyze(ridge, folder, hw, row, steps):
    """ridge's forward time for the row's layer over `steps` steps, at its batch and dtype."""
    path = os.path.join(folder, "%s_%s_%d.toml" % (row["cell"], row["hidden"], steps))
    with open(path, "w") as f:
        f.write(model_text(row["cell"], int(row["hidden"]), steps))
    out = subprocess.run([ridge, "analyze", path, "--hw", hw, "--batch", row["batch"], "--dtype", row["dtype"],
                          "--format", "json"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)["totals"]["time_s"]


def quantile(values, q):
    v = sorted(abs(x) for x in values)
    return v[max(1, min(len(v), math.ceil(q * len(v)))) - 1] if v else float("nan")


def pct(x):
    return "%.1f %%" % (100 * x)


def predictions(ridge):
    """Per row: measured, and the four predictions (pure / calibrated x sequence / per step)."""
    rows = list(csv.DictReader(l for l in open(DATA) if not l.startswith("#")))
    with tempfile.TemporaryDirectory() as tmp:
        for r in rows:
            steps = int(r["steps"])
            for hw in ("v100", "v100-calibrated"):
                r[hw + " sequence"] = analyze(ridge, tmp, hw, r, steps)
                r[hw + " per step"] = steps * analyze(ridge, tmp, hw, r, 1)
    return rows


def errors(rows, key):
    return [r[key] / float(r["seconds"]) - 1 for r in rows]


def holds(rows, key):
    return sum(1 for r in rows if float(r["seconds"]) >= r[key]) / len(rows)


def section(ridge):
    """The section's lines (Markdown)."""
    if not os.path.exists(DATA):
        return []
    rows = predictions(ridge)
    groups = {}
    for r in rows:
        groups.setdefault((NAMES[r["cell"]], r["dtype"]), []).append(r)
    groups[("all", "")] = rows
    lines = ["## NVIDIA V100 RNN kernels (DeepBench), held out from the calibration", "",
             "Data: `%s` (%d rows: %s). Baidu DeepBench's V100 training results, the forward time of each RNN "
             "kernel (cuDNN 7.6.2, CUDA 10.1, one unidirectional layer, cuDNN's standard algorithm, no input product: "
             "CUDNN_SKIP_INPUT; `scripts/deepbench-rnn-to-csv`). Each row is a one-layer model file (`lstm`, `gru` or "
             "`rnn` with `input_mode = \"skip\"`, input [T, H], `--batch N`) timed by `ridge analyze` with the "
             "shipped `v100` (uncalibrated) and `v100-calibrated`; that calibration was fitted on the GEMM and "
             "convolution rows above only, so every RNN row is held out from it, and none was fitted here." % (
                 DATA, len(rows), ", ".join("%d %s %s" % (len(g), c, d) for (c, d), g in groups.items() if c != "all")),
             "",
             "Two ways to time a layer of T steps. *Sequence*: the layer as ridge models it, its weights read once "
             "for the whole sequence (what a persistent kernel keeping them on chip would read; the least traffic, so "
             "the pure roofline is a bound) and one launch. *Per step*: one step of the layer analysed alone, times T: "
             "each step's GEMM (N rows, G H outputs, dot products of H) and gates priced by the layer's op class "
             "(linear), the weights read again at every step and one launch per step, which is what cuDNN's standard "
             "algorithm, the one DeepBench ran, does. The per-step time on `v100-calibrated` is ridge's prediction "
             "for these kernels; the sequence time on `v100` its bound.", "",
             "| cell | dtype | rows | uncalibrated sequence median | p90 | bound holds | uncalibrated per step median "
             "| bound holds (per step) | calibrated per step median | p90 | calibrated sequence median |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for (cell, dtype), g in groups.items():
        lines.append("| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            cell, dtype, len(g), pct(quantile(errors(g, "v100 sequence"), 0.5)),
            pct(quantile(errors(g, "v100 sequence"), 0.9)), pct(holds(g, "v100 sequence")),
            pct(quantile(errors(g, "v100 per step"), 0.5)), pct(holds(g, "v100 per step")),
            pct(quantile(errors(g, "v100-calibrated per step"), 0.5)),
            pct(quantile(errors(g, "v100-calibrated per step"), 0.9)),
            pct(quantile(errors(g, "v100-calibrated sequence"), 0.5))))
    check = subprocess.run([ridge, "calibrate", DATA, "--hw", "v100-calibrated", "--check"], check=True,
                           capture_output=True, text=True).stdout
    lines += ["", notes(rows), "",
              "The CSV's rows as `ridge calibrate --check` prices them (nothing fitted): each row one layer of "
              "`flops`, its weights once, `kernels` = T launches; the calibration's per-kernel time is paid per "
              "step but its half-performance size once per sequence, so this sits between the two ways above:", "",
              "```", check.rstrip(), "```", ""]
    return lines


def notes(rows):
    """What the figures say, computed from the rows."""
    per_step = lambda r, key: (float(r["seconds"]) if key == "measured" else r[key]) / int(r["steps"])
    signed = errors(rows, "v100-calibrated per step")
    fast = sum(1 for e in signed if e < 0)
    worst = max(rows, key=lambda r: abs(r["v100-calibrated per step"] / float(r["seconds"]) - 1))
    bound = [r for r in rows if float(r["seconds"]) < r["v100 sequence"]]
    broken = [r for r in rows if float(r["seconds"]) < r["v100 per step"]]
    small = [r for r in rows if per_step(r, "v100 per step") < 15e-6]
    vanilla = [r for r in rows if r["cell"] == "rnn"]
    ratio = lambda g: sorted(float(r["seconds"]) / r["v100-calibrated per step"] for r in g)
    return ("Calibrated per step, %d of the %d rows come out faster than measured and %d slower; the worst is `%s` "
            "(%s, %s) at %+.0f %%: %s step(s) of a %s-unit %s at batch %s, %.0f us per step measured. %s Read again at every step, the "
            "weights %s. What the GEMM-fitted calibration does not see: a step whose GEMM and gates the pure roofline "
            "puts under 15 us (%d rows) took %.0f-%.0f us measured, against the calibration's %.1f-%.1f us (its "
            "fixed time per kernel is the GEMMs' launch and tail, one kernel per step here); the vanilla cells, the "
            "least work per step, run %.1f-%.1fx the calibrated per-step time. So a step of cuDNN's standard "
            "algorithm costs more fixed time than one GEMM launch (the step's elementwise kernel, its "
            "synchronisation, the reserve space cudnnRNNForwardTraining writes); DeepBench's data alone cannot say "
            "which, and no term is fitted on these rows." % (
                fast, len(rows), len(rows) - fast, worst["layer"], worst["dtype"], worst["model"],
                100 * (worst["v100-calibrated per step"] / float(worst["seconds"]) - 1), worst["steps"],
                worst["hidden"], NAMES[worst["cell"]], worst["batch"], 1e6 * per_step(worst, "measured"),
                "The uncalibrated sequence time is below every measurement: the pure roofline is a bound on these "
                "kernels." if not bound else "The uncalibrated sequence time is above the measurement on %d rows (%s)."
                % (len(bound), ", ".join(r["layer"] for r in bound[:5])),
                "still leave the bound intact on every row: these kernels ran slower than streaming them from HBM at "
                "every step allows (cuDNN's standard algorithm does not hold them in registers or shared memory across "
                "steps, as its persistent algorithms do; those that fit the 6 MiB L2 may stay there)"
                if not broken else "make the roofline slower than the measurement on %d rows (%s): those kernels "
                "kept their weights in L2 or on chip across steps" % (len(broken), ", ".join(
                    "%s %s" % (r["layer"], r["dtype"]) for r in broken[:5])),
                len(small), 1e6 * min(per_step(r, "measured") for r in small),
                1e6 * max(per_step(r, "measured") for r in small),
                1e6 * min(per_step(r, "v100-calibrated per step") for r in small),
                1e6 * max(per_step(r, "v100-calibrated per step") for r in small),
                ratio(vanilla)[0], ratio(vanilla)[-1]))
