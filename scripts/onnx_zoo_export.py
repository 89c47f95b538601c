"""How scripts/onnx-zoo exports each torchvision model to ONNX with torch 1.13, in each
export mode it checks (random weights, nothing downloaded):

  train17  training mode, opset 17, no constant folding (the README's advice: BatchNorm
           kept apart, so the parameters are the module's);
  eval17   eval mode, opset 17, the exporter's defaults (constant folding, BatchNorm
           folded into the convolution before it);
  eval13   the same at opset 13 (common in deployed files; torch 1.13's default is 14).

Classification, segmentation, video and optical-flow models are exported with their
parameters as shapes only (the values do not change a count, and a file stays a few KB
where the weights would be hundreds of MB); detectors keep their (random) weights, as
their export computes constants from them, and exist in eval mode only (in training mode
their forward needs targets, and their post-processing is eval-only).
Also writes the small exports the test suite reads (write_test_files).
"""
import os
import warnings

from onnx_zoo_references import CLIP, DETECTION, DETECTION_SIZE, OPTICAL_FLOW, OPTICAL_FLOW_SIZE, SEGMENTATION, \
    SEGMENTATION_SIZE, family

MODES = ("train17", "eval17", "eval13")


def modes_of(name):
    """The export modes that exist for a model: detectors eval only; RAFT not at opset 13,
    since its grid_sample has an ONNX form (GridSample) from opset 16 on only (torch 1.13:
    "Exporting the operator 'aten::grid_sampler' to ONNX opset version 13 is not supported")."""
    if name in DETECTION:
        return MODES[1:]
    return MODES[:2] if name in OPTICAL_FLOW else MODES


def input_dims(name):
    """The input's axes after the channels: [H, W], [frames, H, W] for a clip."""
    if name in DETECTION:
        return [DETECTION_SIZE.get(name, 320)] * 2
    if name in CLIP:
        return CLIP[name]
    if name in SEGMENTATION:
        return [SEGMENTATION_SIZE] * 2
    if name in OPTICAL_FLOW:
        return OPTICAL_FLOW_SIZE
    crop = first_weights(name).transforms.keywords.get("crop_size", 224)
    return list(crop) if isinstance(crop, (list, tuple)) else [crop, crop]


def first_weights(name):
    import torchvision
    return list(torchvision.models.get_model_weights(name))[0]


def build(name, **extra):
    """The model without weights (random initialisation skipped where the values do not
    matter: every torch.nn.init function is a no-op while it is built, then every
    parameter and buffer is zeroed so that none holds NaNs)."""
    import torch
    import torchvision
    if family(name) == "detection":
        kw = {} if name in DETECTION_SIZE or "320" in name else {"min_size": 320, "max_size": 320}
        return torchvision.models.get_model(name, weights=None, weights_backbone=None, **kw, **extra)
    # googlenet / inception_v3: the auxiliary classifiers are training-only heads that
    # torchvision's published counts leave out. Segmentation: the weights are built with
    # the auxiliary head, which runs in forward and which the published figures count.
    if name in ("googlenet", "inception_v3"):
        extra = {"aux_logits": False, "init_weights": False, **extra}
    if name in SEGMENTATION and name != "lraspp_mobilenet_v3_large":
        extra = {"aux_loss": True, "weights_backbone": None, **extra}
    if name == "lraspp_mobilenet_v3_large":
        extra = {"weights_backbone": None, **extra}
    saved = {}
    for fn in dir(torch.nn.init):
        if fn.endswith("_") and not fn.startswith("_"):
            saved[fn] = getattr(torch.nn.init, fn)
            setattr(torch.nn.init, fn, lambda t, *a, **k: t)
    try:
        model = torchvision.models.get_model(name, weights=None, **extra)
    finally:
        for fn, f in saved.items():
            setattr(torch.nn.init, fn, f)
    with torch.no_grad():
        for t in list(model.parameters()) + list(model.buffers()):
            if t.is_floating_point():
                t.zero_()
    return model


def example_inputs(name):
    import torch
    dims = input_dims(name)
    if name in DETECTION:
        return ([torch.rand(3, *dims)],), ["images"]
    if name in OPTICAL_FLOW:
        return (torch.rand(1, 3, *dims), torch.rand(1, 3, *dims)), ["image1", "image2"]
    return (torch.rand(1, 3, *dims),), ["input"]


def export(name, mode, path):
    """Writes `path`: `name` exported in `mode` (one of MODES)."""
    import torch
    torch.set_num_threads(1)
    args, input_names = example_inputs(name)
    opset = int(mode[-2:])
    training = mode.startswith("train")
    detector = name in DETECTION
    model = build(name)
    model.train() if training else model.eval()
    without_stochastic_depth(model)
    with warnings.catch_warnings(), one_value_batch_norm(), no_whole_graph_shape_inference(name):
        warnings.simplefilter("ignore")
        torch.onnx.export(model, args, path, opset_version=opset, input_names=input_names,
                          training=torch.onnx.TrainingMode.TRAINING if training else torch.onnx.TrainingMode.EVAL,
                          do_constant_folding=not training, export_params=not training)
    if training:
        shapes_only(path, input_names)
    elif not detector:
        without_float_data(path)


class one_value_batch_norm:
    """In training mode torch refuses a BatchNorm over one value per channel (DeepLabV3's
    image pooling branch on one image): a Python-side check only, which does not change
    the traced graph, so it is lifted while exporting."""

    def __enter__(self):
        import torch.nn.functional as F
        self.saved = F._verify_batch_size
        F._verify_batch_size = lambda size: None

    def __exit__(self, *exc):
        import torch.nn.functional as F
        F._verify_batch_size = self.saved


class no_whole_graph_shape_inference:
    """mvit_v2_s only: torch 1.13's pass that infers every value's shape over the whole
    exported graph (_jit_pass_onnx_graph_shape_type_inference) went past this 23 GB
    machine's memory (out-of-memory kill, 26 November 2026), while the export without it
    peaks at 2.1 GB resident and takes 2 to 3 minutes of CPU per mode (train17 184 s,
    eval17 154 s, eval13 127 s; 26 November 2026). The pass annotates the graph's values
    with shapes and types (the per-node inference the symbolic functions read still runs),
    and ridge infers every shape itself, so it is made a no-op for this model alone: the
    three exports then import with the module's parameters and the published MACs."""

    def __init__(self, name):
        self.skip = name == "mvit_v2_s"

    def __enter__(self):
        import torch
        if self.skip:
            self.saved = torch._C._jit_pass_onnx_graph_shape_type_inference
            torch._C._jit_pass_onnx_graph_shape_type_inference = lambda *args, **kwargs: None

    def __exit__(self, *exc):
        import torch
        if self.skip:
            torch._C._jit_pass_onnx_graph_shape_type_inference = self.saved


def shapes_only(path, input_names):
    """Turns the parameters of an export with export_params=False (graph inputs) into
    shape-only initializers that keep their name, type and dims."""
    import onnx
    m = onnx.load(path)
    keep = []
    for v in m.graph.input:
        if v.name in input_names:
            keep.append(v)
            continue
        tt = v.type.tensor_type
        m.graph.initializer.append(onnx.TensorProto(name=v.name, data_type=tt.elem_type,
                                                    dims=[d.dim_value for d in tt.shape.dim]))
    del m.graph.input[:]
    m.graph.input.extend(keep)
    # Large constants made in forward (Swin's attention mask and position index) keep
    # their shapes only too: ridge reads the values of small integer constants alone.
    for node in m.graph.node:
        for a in node.attribute:
            if node.op_type == "Constant" and a.name == "value" and len(a.t.raw_data) > 512:
                a.t.ClearField("raw_data")
    onnx.save(m, path)


def without_float_data(path):
    """An eval export keeps its initializers' names, types and dims but drops the data of
    the floating-point ones over 512 bytes (the weights; integer shape and index constants
    the graph computes with stay)."""
    import onnx
    m = onnx.load(path)
    for t in m.graph.initializer:
        if t.data_type in (onnx.TensorProto.FLOAT, onnx.TensorProto.FLOAT16, onnx.TensorProto.DOUBLE) and \
                len(t.raw_data) > 512:
            t.ClearField("raw_data")
    onnx.save(m, path)


def without_stochastic_depth(module):
    """StochasticDepth draws random numbers in training mode, which the exporter cannot
    trace; it is the identity at inference, so it goes."""
    import torch
    import torchvision
    for child_name, child in module.named_children():
        if isinstance(child, torchvision.ops.StochasticDepth):
            setattr(module, child_name, torch.nn.Identity())
        else:
            without_stochastic_depth(child)


def export_shapes(model, size, path):
    """Exports `model` in training mode on a [1, 3, size, size] input with shape-only
    initializers."""
    import torch
    without_stochastic_depth(model)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, torch.randn(1, 3, size, size), path, opset_version=17, input_names=["input"],
                          output_names=["logits"], training=torch.onnx.TrainingMode.TRAINING,
                          do_constant_folding=False, export_params=False)
    shapes_only(path, ["input"])


def write_test_files(folder):
    """The small torch exports tests/test_onnx_import.cpp reads (shapes only, a few KB):
    a one-layer ViT (nn.MultiheadAttention moves the batch), a one-stage Swin
    (windows merge with the batch) and a two-layer decoder of symbolic sequence length
    (gpt-tiny, tests/test_onnx_round_trip.cpp). Their parameter counts are the modules' own."""
    import torch
    from torchvision.models import VisionTransformer
    from torchvision.models.swin_transformer import SwinTransformer
    torch.manual_seed(0)
    vit = VisionTransformer(image_size=32, patch_size=16, num_layers=1, num_heads=2, hidden_dim=8, mlp_dim=16,
                            num_classes=3)
    swin = SwinTransformer(patch_size=[4, 4], embed_dim=8, depths=[2], num_heads=[2], window_size=[4, 4],
                           stochastic_depth_prob=0.0, num_classes=3)
    import onnx
    gpt = tiny_decoder()
    for name, model in (("vit-tiny", vit), ("swin-tiny", swin), ("gpt-tiny", gpt)):
        path = os.path.join(folder, name + ".onnx")
        if model is gpt:
            export_symbolic_sequence(model, path)
        else:
            export_shapes(model, 32, path)
        # Intermediate tensors renamed t0, t1, ... (node names, which name the layers, stay).
        m = onnx.load(path)
        keep = {v.name for v in list(m.graph.input) + list(m.graph.output)} | {t.name for t in m.graph.initializer}
        short = {}
        for node in m.graph.node:
            node.doc_string = ""
            for i, o in enumerate(node.output):
                if o not in keep:
                    short[o] = node.output[i] = f"t{len(short)}"
            for i, x in enumerate(node.input):
                node.input[i] = short.get(x, x)
        onnx.save(m, path)
        print(name, sum(p.numel() for p in model.parameters()), "parameters")


def tiny_decoder():
    import torch

    class Decoder(torch.nn.Module):
        """Token and learned position embeddings (vocabulary 100, 64 positions, width 32),
        two pre-LN nn.TransformerEncoderLayer blocks (4 heads, FFN 128, no mask), a final
        LayerNorm and an untied head: the shape of a GPT, small."""

        def __init__(self, vocab=100, width=32, heads=4, layers=2, positions=64):
            super().__init__()
            self.wte = torch.nn.Embedding(vocab, width)
            self.wpe = torch.nn.Embedding(positions, width)
            self.blocks = torch.nn.ModuleList([torch.nn.TransformerEncoderLayer(
                width, heads, 4 * width, dropout=0.0, batch_first=True, norm_first=True) for _ in range(layers)])
            self.ln = torch.nn.LayerNorm(width)
            self.head = torch.nn.Linear(width, vocab, bias=False)

        def forward(self, ids):
            x = self.wte(ids) + self.wpe(torch.arange(ids.shape[1], device=ids.device))
            for block in self.blocks:
                x = block(x)
            return self.head(self.ln(x))
    return Decoder()


def export_symbolic_sequence(model, path):
    """Exports a token model on [1, 16] ids whose axes are the symbolic 'batch' and 'seq'."""
    import torch
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, torch.zeros(1, 16, dtype=torch.long), path, opset_version=17, input_names=["ids"],
                          output_names=["logits"], dynamic_axes={"ids": {0: "batch", 1: "seq"}},
                          training=torch.onnx.TrainingMode.TRAINING, do_constant_folding=False, export_params=False)
    shapes_only(path, ["ids"])


