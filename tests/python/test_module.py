"""The Python module (`import ridge`) against hand-worked and published values, and
against the command line's own JSON (same keys). Run by ctest with PYTHONPATH=build/python;
`RIDGE` names the built binary (default build/ridge)."""

import json
import os
import subprocess
import tempfile
import unittest

import ridge

RIDGE = os.environ.get("RIDGE", os.path.join("build", "ridge"))


def cli_json(*args):
    return json.loads(subprocess.run([RIDGE, *args, "--format", "json"], check=True, capture_output=True,
                                     text=True).stdout)


class Analyze(unittest.TestCase):
    def test_worked_example(self):
        # DESIGN.md: AlexNet conv1, 55*55*3*11*11*96 = 105,415,200 MACs; 34,944 parameters.
        r = ridge.analyze("alexnet", hw="v100")
        conv1 = next(l for l in r.layers if l["name"] == "conv1")
        self.assertEqual(conv1["macs"], 55 * 55 * 3 * 11 * 11 * 96)
        self.assertEqual(conv1["params"], 34848 + 96)
        self.assertEqual(conv1["input_bytes"], 227 * 227 * 3 * 4)

    def test_totals_are_the_sum_of_layers(self):
        r = ridge.analyze("resnet50", hw="a100", batch=64)
        self.assertAlmostEqual(r.totals["time_s"], sum(l["time_s"] for l in r.layers), delta=1e-12)
        self.assertEqual(r.report["batch"], 64)

    def test_same_keys_as_the_command_line(self):
        r = ridge.analyze("gpt2", hw="h100", dtype="fp16", phase="decode", context=512)
        cli = cli_json("analyze", "gpt2", "--hw", "h100", "--dtype", "fp16", "--phase", "decode", "--context", "512")
        self.assertEqual(r.report, cli)

    def test_settings_become_options(self):
        # seq is a run option; set= a model parameter: prefill of 256 tokens either way.
        a = ridge.analyze("gpt2", phase="prefill", seq=256)
        b = ridge.analyze("gpt2", phase="prefill", set={"model.seq": 256})
        self.assertEqual(a.totals["macs"], b.totals["macs"])

    def test_hardware_overrides(self):
        # Doubling the HBM bandwidth (900 GB/s -> 1.8 TB/s, V100 datasheet) halves every
        # layer's DRAM time, by the roofline's definition (bytes / bandwidth).
        base = ridge.analyze("alexnet", hw="v100")
        fast = ridge.analyze("alexnet", hw=ridge.hardware("v100").set("memory.HBM2.bandwidth", "1.8 TB/s"))
        for a, b in zip(base.layers, fast.layers):
            self.assertAlmostEqual(b["memory_time_s"], a["memory_time_s"] / 2, delta=1e-15)

    def test_dataframe(self):
        try:
            import pandas  # noqa: F401
        except ImportError:
            self.skipTest("pandas is not installed")
        r = ridge.analyze("alexnet", hw="v100")
        df = r.to_dataframe()
        self.assertEqual(len(df), len(r.layers))
        self.assertEqual(list(df.columns), list(r.layers[0].keys()))


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


# A one-layer model: Linear(8, WIDTH) on 8 features, MACs = 8 x WIDTH per sample.
LINEAR_MODEL = 'name = "lin"\n[params]\nwidth = {width}\n[input]\nshape = [8]\n[[layer]]\nname = "fc"\nop = "linear"\nout_features = "width"\n'


class FastPath(unittest.TestCase):
    """analyze() keeps models and descriptors between calls and builds its result directly."""

    def test_parts_agree_with_the_whole_report(self):
        # Layers and totals built alone are the report's, whichever is asked for first.
        a = ridge.analyze("resnet50", hw="a100", batch=8)
        layers, totals = a.layers, a.totals
        self.assertEqual(len(a), len(layers))
        self.assertIs(a.report["layers"], layers)
        b = ridge.analyze("resnet50", hw="a100", batch=8)
        self.assertEqual(b.report["layers"], layers)
        self.assertEqual(b.report["totals"], totals)
        self.assertEqual(b.report, cli_json("analyze", "resnet50", "--hw", "a100", "--batch", "8"))

    def test_columns_choose_keys(self):
        r = ridge.analyze("alexnet", hw="v100", columns="name,time_s")
        self.assertEqual(list(r.layers[0].keys()), ["name", "time_s"])
        self.assertEqual(r.report, cli_json("analyze", "alexnet", "--hw", "v100", "--columns", "name,time_s"))

    def test_an_edited_file_is_read_again(self):
        with tempfile.TemporaryDirectory() as d:
            model, hw = os.path.join(d, "lin.toml"), os.path.join(d, "gpu.toml")
            write(model, LINEAR_MODEL.format(width=4))
            with open("configs/hw/v100.toml") as f:
                v100 = f.read()
            write(hw, v100)
            first = ridge.analyze(model, hw=hw)
            self.assertEqual(first.totals["macs"], 8 * 4)
            write(model, LINEAR_MODEL.format(width=16))
            # V100 HBM2 at 900 GB/s (datasheet); the copy at 1800 GB/s halves the memory time.
            write(hw, v100.replace('bandwidth = "900 GB/s"', 'bandwidth = "1800 GB/s"'))
            second = ridge.analyze(model, hw=hw)
            self.assertEqual(second.totals["macs"], 8 * 16)
            self.assertAlmostEqual(second.layers[0]["memory_time_s"],
                                   ridge.analyze(model, hw="v100").layers[0]["memory_time_s"] / 2, delta=1e-15)

    def test_the_cache_is_bounded(self):
        ridge.cache_clear()
        with tempfile.TemporaryDirectory() as d:
            model = os.path.join(d, "lin.toml")
            write(model, LINEAR_MODEL.format(width=4))
            limit = ridge.cache_info()["limit"]
            for width in range(1, limit + 11):
                self.assertEqual(ridge.analyze(model, set={"model.width": width}).totals["macs"], 8 * width)
        self.assertEqual(ridge.cache_info()["models"], limit)

    def test_parallel_plans_are_the_commands_report(self):
        r = ridge.analyze("gpt3", system="dgx-a100", parallel="tp=8,pp=8,dp=1", global_batch=64)
        self.assertEqual(r.report, cli_json("analyze", "gpt3", "--system", "dgx-a100", "--parallel", "tp=8,pp=8,dp=1",
                                            "--global-batch", "64"))


class OtherCommands(unittest.TestCase):
    def test_query(self):
        q = ridge.query("alexnet", hw="v100", layer="conv1")
        self.assertEqual(q["macs"], 105415200)
        self.assertIn("bandwidth_limited", q)

    def test_memory(self):
        # GPT-2 small: 124,439,808 parameters (Hugging Face gpt2, tied lm_head); Adam in
        # fp32 keeps weights + gradients + two moments = 16 bytes per parameter.
        m = ridge.memory("gpt2", hw="h100")
        self.assertEqual(m["params"], 124439808)
        self.assertEqual(m["optimizer_bytes"], 124439808 * 8)

    def test_sweep(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "s.toml")
            with open(path, "w") as f:
                f.write('models = ["alexnet", "mlp"]\nhardware = ["v100", "a100"]\nbatch = [1, 8, 64]\n')
            table = ridge.sweep(path)
        self.assertEqual(len(table), 2 * 2 * 3)
        self.assertEqual({row["model"] for row in table}, {"alexnet", "mlp"})

    def test_compare(self):
        # Ratios against the first device: its own speedup is exactly 1; the K80's $2,500
        # over one year of 8760 h plus its power at $0.13/kWh is its cost per hour.
        t = ridge.compare("resnet50", hw=["gtx1080ti", "k80"], phase="training", batch=64)
        self.assertEqual([row["hardware"] for row in t], ["gtx1080ti", "k80"])
        self.assertEqual(t.report["devices"][0]["speedup"], 1)
        k80 = t.report["devices"][1]
        self.assertAlmostEqual(k80["usd_per_hour"], 2500 / 8760 + k80["average_power_w"] / 1000 * 0.13, places=12)


class Errors(unittest.TestCase):
    def test_unknown_model(self):
        with self.assertRaises(ridge.InputError) as e:
            ridge.analyze("alexnett")
        self.assertIn("alexnet", e.exception.hint)

    def test_located_error(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "bad.toml")
            with open(path, "w") as f:
                f.write('name = "bad"\n[input]\nshape = [3, 8, 8]\n[[layer]]\nname = "fc"\nop = "linear"\n'
                        'out_features = -4\n')
            with self.assertRaises(ridge.InputError) as e:
                ridge.analyze(path)
        self.assertEqual((e.exception.file, e.exception.line), (path, 7))
        self.assertGreater(e.exception.column, 0)
        self.assertTrue(str(e.exception).startswith("error: " + path + ":7:"))

    def test_unknown_option(self):
        with self.assertRaises(ridge.InputError):
            ridge.analyze("alexnet", btach=4)


if __name__ == "__main__":
    unittest.main()
