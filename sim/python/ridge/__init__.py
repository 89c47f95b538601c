"""ridge from Python: the analytic roofline simulator's commands as functions.

Each function runs the same command as the `ridge` binary, in-process, and returns its
JSON report as Python objects with the same keys (docs/reference/json-schema.md)::

    import ridge
    r = ridge.analyze("resnet50", hw="a100", batch=64, dtype="fp16")
    r.totals["time_s"]            # the step time, seconds
    r.layers[0]["bound"]          # 'compute' or 'memory:HBM2e'
    r.to_dataframe()              # a pandas DataFrame of the layers (pandas needed)

Keyword arguments are the command's options with '-' written '_' (seq=512,
kv_dtype="fp8", allow_unknown=True); a list repeats the option; set={"model.seq": 512}
(or a list of "KEY=VALUE") gives --set overrides. Bad input raises ridge.InputError,
whose file, line, column and hint say where and what to do.

analyze() is the fast path for sweeping from a notebook: it keeps the models and
descriptors it has read (re-reading a file when its size or modification time changes;
cache_info(), cache_clear()) and builds its layers, totals and report only when they are
first used, directly from the computed result rather than from JSON text.
"""

import json
import os

# Installed under PREFIX/lib/python3/dist-packages, the module finds the data that
# `cmake --install` put in PREFIX/share/ridge (unless RIDGE_DATA_DIR says otherwise).
_installed_data = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "share", "ridge"))
if not os.environ.get("RIDGE_DATA_DIR") and os.path.isdir(os.path.join(_installed_data, "models")):
    os.environ["RIDGE_DATA_DIR"] = _installed_data

from ._ridge import InputError, RunError, analyze as _analyze, cache_clear, cache_info, run as _run

__all__ = ["analyze", "query", "memory", "generate", "compare", "sweep", "hardware", "Hardware", "Result", "Table",
           "InputError", "RunError", "run", "cache_info", "cache_clear"]


class Hardware:
    """A shipped descriptor name (or descriptor file) with --set overrides.

    ridge.hardware("v100").set("memory.HBM2.bandwidth", "1.2 TB/s") is a V100 with
    faster memory; pass it as hw= to any function. set() returns a new object.
    """

    def __init__(self, name, sets=()):
        self.name = str(name)
        self.sets = tuple(sets)

    def set(self, key, value=None, **more):
        """A copy with KEY=VALUE overrides (set("compute.fp32", "120 TFLOPS"))."""
        sets = list(self.sets)
        if value is not None:
            sets.append(f"{key}={value}")
        sets.extend(f"{k}={v}" for k, v in more.items())
        return Hardware(self.name, sets)

    def __repr__(self):
        return f"ridge.hardware({self.name!r})" + "".join(f".set({s!r})" for s in self.sets)


def hardware(name):
    """The descriptor NAME (ridge list hardware) or a descriptor file, without overrides."""
    return Hardware(name)


class Table:
    """Rows of a report: .rows is a list of dicts; to_dataframe() needs pandas."""

    def __init__(self, rows):
        self.rows = rows

    def to_dicts(self):
        return list(self.rows)

    def to_dataframe(self):
        import pandas  # optional: only this method needs it
        return pandas.DataFrame.from_records(self.rows)

    def __len__(self):
        return len(self.rows)

    def __iter__(self):
        return iter(self.rows)


class Result(Table):
    """An analyze report: .layers (list of dicts), .totals (dict), .report (the whole JSON).

    Each part is built on first use, from the run itself (or from a parsed report, for
    the training plans of --parallel / --system)."""

    def __init__(self, run):
        self._run = None if isinstance(run, dict) else run
        self._report = run if isinstance(run, dict) else None
        self._layers = None
        self._totals = None

    @property
    def report(self):
        if self._report is None:
            self._report = self._run.report()
            if self._layers is not None:  # one list of layers, whichever was asked for first
                self._report["layers"] = self._layers
            if self._totals is not None:
                self._report["totals"] = self._totals
        return self._report

    @property
    def layers(self):
        if self._layers is None:
            self._layers = self._run.layers() if self._report is None else self._report.get("layers", [])
        return self._layers

    @property
    def totals(self):
        if self._totals is None:
            self._totals = self._run.totals() if self._report is None else self._report.get("totals", {})
        return self._totals

    @property
    def rows(self):
        return self.layers

    def __len__(self):
        return self._run.layer_count() if self._layers is None and self._run is not None else len(self.layers)

    def __getitem__(self, key):
        return self.report[key]

    def __repr__(self):
        model = self._run.model if self._run is not None else self.report.get("model")
        step = self.totals.get("time_s")
        return f"<ridge.Result {model!r}, {len(self)} layers" + (f", step {step:.4g} s>" if step is not None else ">")


def _option_args(options):
    args = []
    for key, value in options.items():
        if value is None or value is False:
            continue
        flag = "--" + key.replace("_", "-")
        if key == "set":
            items = value.items() if isinstance(value, dict) else ((None, v) for v in value)
            for k, v in items:
                args += [flag, v if k is None else f"{k}={v}"]
        elif value is True:
            args.append(flag)
        elif isinstance(value, (list, tuple)):
            for v in value:
                args += [flag, str(v)]
        else:
            args += [flag, str(value)]
    return args


def _hw_args(hw):
    if hw is None:
        return []
    if isinstance(hw, Hardware):
        args = ["--hw", hw.name]
        for s in hw.sets:
            args += ["--set", s]
        return args
    return ["--hw", str(hw)]


def run(command, *args):
    """Runs `ridge COMMAND ARGS...` and returns what it printed (a string)."""
    return _run(command, [str(a) for a in args])


def _json(command, positional, hw, options):
    args = list(positional) + _hw_args(hw) + _option_args(options) + ["--format", "json"]
    return json.loads(_run(command, args))


def analyze(model, hw=None, **options):
    """`ridge analyze MODEL`: per-layer counts (and times with hw=) as a Result."""
    args = [str(model)] + _hw_args(hw) + _option_args(options) + ["--format", "json"]
    run = _analyze(args)
    return Result(run if run is not None else json.loads(_run("analyze", args)))


def query(model, hw, layer=None, **options):
    """`ridge query MODEL --layer NAME`: why one layer is (or is not) bandwidth-limited (a dict)."""
    return _json("query", [model], hw, dict(options, layer=layer))


def memory(model, hw=None, **options):
    """`ridge memory MODEL`: memory parts, peak, fit and largest batch (a dict)."""
    return _json("memory", [model], hw, options)


def generate(model, hw, **options):
    """`ridge generate MODEL`: LLM generation times and tokens/s (a dict)."""
    return _json("generate", [model], hw, options)


def compare(model, hw, **options):
    """`ridge compare MODEL --hw A --hw B ...`: devices side by side, with energy and cost.

    hw is a list of names, paths or Hardware; returns the report's devices as a Table
    (one dict per device: time_s, samples_per_s, joules_per_sample, usd_per_hour, ...)."""
    args = [model]
    for h in hw:
        args += _hw_args(h)
    report = json.loads(_run("compare", args + _option_args(options) + ["--format", "json"]))
    table = Table(report["devices"])
    table.report = report
    return table


def sweep(path, **options):
    """`ridge sweep FILE`: the sweep's rows as a Table (one dict per point)."""
    report = _json("sweep", [path], None, options)
    rows = report["points"]
    table = Table(rows)
    table.report = report
    return table
