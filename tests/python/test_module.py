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
