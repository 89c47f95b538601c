// Bad-input classes as a table: each row is one input error a reader can raise, the
// command that provokes it through the real binary, and the message it must print
// (exit 2, one `error:` line located in the file where there is one, at most a `hint:`).
// A second test counts the input-error throw sites (`throw InputError` and `fail(`) in
// each reader source and fails when one has more sites than rows here plus its recorded
// backlog of sites covered elsewhere or not yet by this table: a new throw needs a row.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <map>
#include <regex>
#include <string_view>

#include <google/protobuf/text_format.h>
#include <onnx/onnx_pb.h>

#include "tests/run_ridge.hpp"
#include "tests/test_folder.hpp"

namespace {

struct Case {
  const char* reader;   // the source file whose throw site this row provokes
  const char* file;     // text of the input file written before the command ("" for none)
  const char* command;  // shell command; RIDGE is the binary, run in the test's folder
  const char* message;  // must appear in the error line
  bool located;         // the error line starts with `error: NAME:LINE:COL:`
  const char* name = "in.toml";  // the input file; an `.onnx` one is `file` in protobuf text format, written binary
};

#define SWEEP "models = [\"mlp\"]\nhardware = [\"v100\"]\n"
#define VARY "[[vary]]\nkey = \"memory.HBM2.bandwidth\"\n"
#define SET "RIDGE analyze mlp --hw v100 --set "
#define HW_HEAD "name = \"h\"\nkind = \"gpu\"\nsource = \"t\"\n"
#define HW_MEM "[[memory]]\nname = \"D\"\ncapacity = \"1 GiB\"\nbandwidth = \"1 TB/s\"\n"
#define HW_COMPUTE "[compute]\nfp32 = \"1 TFLOPS\"\n"
#define HW_DERIVED "[compute]\ncores = 4\nclock = \"1 GHz\"\n"
#define ANALYZE_HW "RIDGE analyze mlp --hw in.toml"
#define MODEL "name = \"m\"\n[input]\nshape = [4]\n"
#define LAYER(NAME, OP) "[[layer]]\nname = \"" NAME "\"\nop = \"" OP "\"\n"
#define ANALYZE "RIDGE analyze ./in.toml"
#define MR "sim/workload/model_reader.cpp"
#define CSV_HEADER "model,layer,op_class,dtype,flops,bytes,seconds\n"
#define CALIBRATE "RIDGE calibrate in.csv --hw v100"
// An ONNX graph (input x: 1x3x8x8) of one node in protobuf text format: NODE is the
// node's fields, EXTRA more graph fields (initializers).
#define ONNX_GRAPH(NODE, EXTRA)                                                                                   \
  "ir_version: 8 opset_import { version: 13 } graph { node { name: \"n\" " NODE " } "                            \
  "input { name: \"x\" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 3 } "   \
  "dim { dim_value: 8 } dim { dim_value: 8 } } } } } output { name: \"y\" } " EXTRA " }"
#define ONNX_INT(NAME, VALUES) "initializer { name: \"" NAME "\" data_type: 7 " VALUES " } "
#define ONNX "RIDGE analyze ./in.onnx"
#define PLOT_CSV "hardware,dtype,batch,samples_per_s,bound\nv100,fp16,1,10,compute\na100,fp16,1,20,compute\n"

const Case kCases[] = {
    // sim/engine/sweep_file.cpp
    {"sim/engine/sweep_file.cpp", "hardware = [\"v100\"]\n", "RIDGE sweep in.toml", "missing required list 'models'", true},
    {"sim/engine/sweep_file.cpp", "models = \"mlp\"\nhardware = [\"v100\"]\n", "RIDGE sweep in.toml", "'models' must be a list", true},
    {"sim/engine/sweep_file.cpp", "models = []\nhardware = [\"v100\"]\n", "RIDGE sweep in.toml", "'models' is an empty list", true},
    {"sim/engine/sweep_file.cpp", "models = [1]\nhardware = [\"v100\"]\n", "RIDGE sweep in.toml", "every element of 'models' must be a string", true},
    {"sim/engine/sweep_file.cpp", SWEEP "dtype = [\"fp13\"]\n", "RIDGE sweep in.toml", "sweep: unknown dtype 'fp13'", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "unit = \"\"\nvalues = [1]\n", "RIDGE sweep in.toml", "'unit' must not be empty", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "values = [\"1 TB/s\"]\nfrom = 1\n", "RIDGE sweep in.toml", "give either 'values' or a range", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "values = [inf]\n", "RIDGE sweep in.toml", "a value must be finite (got inf)", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "values = [true]\n", "RIDGE sweep in.toml", "a value must be a string", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "from = 1\nto = 2\nstep = 1\ncount = 2\n", "RIDGE sweep in.toml", "'count' and 'step' are both given", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "from = 1\nto = 2\n", "RIDGE sweep in.toml", "a range needs 'step' or 'count'", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "from = 1\nto = 2\ncount = 2\nscale = \"cubic\"\n", "RIDGE sweep in.toml", "'scale' must be \"linear\" or \"log\"", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY, "RIDGE sweep in.toml", "[[vary]] #1: no values", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "from = 2\nto = 1\ncount = 2\n", "RIDGE sweep in.toml", "'to' must be greater than 'from'", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "from = 0\nto = 1\ncount = 2\nscale = \"log\"\n", "RIDGE sweep in.toml", "a log scale needs from > 0", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "from = 1\nto = 2\ncount = 1\n", "RIDGE sweep in.toml", "'count' must be 2 to 100000", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "from = 1\nto = 2\nstep = 0\n", "RIDGE sweep in.toml", "'step' must be greater than 0", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "from = 0\nto = 1000000\nstep = 1\n", "RIDGE sweep in.toml", "more than 100000 values", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "from = 1\nto = 1000\ncount = 1000\n[[vary]]\nkey = \"compute.fp32\"\nfrom = 1\nto = 1000\ncount = 1000\n",
     "RIDGE sweep in.toml", "the sweep has 1000000 points", false},
    {"sim/engine/sweep_file.cpp", SWEEP "hw_model = [\"roofline2\"]\n", "RIDGE sweep in.toml", "unknown hardware model 'roofline2'", true},
    {"sim/engine/sweep_file.cpp", SWEEP "batch = [0]\n", "RIDGE sweep in.toml", "a batch must be a positive integer", true},
    {"sim/engine/sweep_file.cpp", SWEEP "vary = 1\n", "RIDGE sweep in.toml", "'vary' must be an array of tables", true},
    {"sim/engine/sweep_file.cpp", SWEEP VARY "values = [\"1 TB/s\"]\n" VARY "values = [\"2 TB/s\"]\n", "RIDGE sweep in.toml", "is varied twice", true},
    {"sim/engine/sweep_file.cpp", "", "RIDGE sweep missing.toml", "cannot read sweep file 'missing.toml'", false},
    {"sim/engine/sweep_file.cpp", SWEEP "phase = [\"decode\"]\ncontext = [-1]\n", "RIDGE sweep in.toml",
     "a context must be a non-negative integer", true},
    {"sim/engine/sweep_file.cpp", SWEEP "phase = [\"decode\"]\n", "RIDGE sweep in.toml", "phase \"decode\" needs context = [...]", true},
    {"sim/engine/sweep_file.cpp", SWEEP "context = [128]\n", "RIDGE sweep in.toml", "'context' applies to phase = [\"decode\"] only", true},
    {"sim/engine/sweep_file.cpp", SWEEP "phase = [\"prefill\"]\nseq = [0]\n", "RIDGE sweep in.toml",
     "a seq must be a positive integer", true},
    {"sim/engine/sweep_file.cpp", SWEEP "phase = [\"prefill\", \"inference\"]\nseq = [128]\n", "RIDGE sweep in.toml",
     "'seq' applies to phase = [\"prefill\"] only", true},
    // sim/workload/model_reader.cpp and ops (most are in the backlog below)
    {"sim/workload/model_reader.cpp", "name = \"m\"\nmax_positions = 0\n[input]\nshape = [4, 8]\n[[layer]]\nname = \"n\"\nop = \"rmsnorm\"\n",
     "RIDGE analyze ./in.toml", "'max_positions' must be a positive integer (got 0)", false},
    {"sim/workload/model_reader.cpp", "name = \"m\"\n[params]\na = \"a + 1\"\n[input]\nshape = [4]\n[[layer]]\nname = \"r\"\nop = \"relu\"\n",
     "RIDGE analyze ./in.toml", "[params]: 'a' is defined in terms of itself", false},
    {"sim/workload/model_reader.cpp", "name = \"m\"\n[params]\na = 1.5\n[input]\nshape = [4]\n[[layer]]\nname = \"r\"\nop = \"relu\"\n",
     "RIDGE analyze ./in.toml", "[params]: 'a' must be an integer or an expression string", false},
    {"sim/workload/model_reader.cpp", "name = \"m\"\n[input]\nshape = [4]\n[[layer]]\nname = \"r\"\nop = \"relu\"\n",
     "RIDGE analyze ./in.toml --set model.b=3", "the model has no parameter 'b' to set", false},
    {MR, "name = \"m\"\nlayer = [1]\n[input]\nshape = [4]\n", ANALYZE, "each entry of 'layer' / 'body' must be a table", true},
    {MR, MODEL "[[layer]]\nname = \"b\"\nrepeat = 100000\n[[layer.body]]\nname = \"r\"\nop = \"relu\"\n[[layer.body]]\nname = \"s\"\nop = \"relu\"\n",
     ANALYZE, "the model expands to more than 100000 layers", true},
    {MR, MODEL LAYER("", "relu"), ANALYZE, "'name' must not be empty", true},
    {MR, MODEL LAYER("a@b", "relu"), ANALYZE, "must not contain '@' (got 'a@b')", true},
    {MR, MODEL LAYER("r", "relu") LAYER("r", "relu"), ANALYZE, "two layers are called 'r'", true},
    {MR, MODEL "[[layer]]\nname = \"b\"\nrepeat = 100001\n[[layer.body]]\nname = \"r\"\nop = \"relu\"\n", ANALYZE,
     "repeat = 100001 is more than the limit of 100000 layers", true},
    {MR, MODEL "[[layer]]\nname = \"b\"\nrepeat = 2\nbody = []\n", ANALYZE, "'body' must hold at least one layer", true},
    {MR, MODEL LAYER("l", "linear") "out_features = 4\ntied_to = \"zz\"\n", ANALYZE, "layer 'l': tied_to 'zz' names no layer", true},
    {MR, MODEL LAYER("l", "linear") "out_features = 4\ntied_to = \"l\"\n", ANALYZE, "layer 'l' cannot be tied to itself", true},
    {MR, MODEL LAYER("r", "relu") LAYER("l", "linear") "out_features = 4\ntied_to = \"r\"\n", ANALYZE,
     "layer 'l': tied_to 'r' (relu) has no weight matrix to share", true},
    {MR, MODEL LAYER("a", "linear") "out_features = 4\n" LAYER("l", "linear") "out_features = 8\ntied_to = \"a\"\n", ANALYZE,
     "layer 'l': its weight [8, 4] cannot be tied to 'a', whose weight is [4, 4]", true},
    {MR, MODEL LAYER("r", "relu") "inputs = []\n", ANALYZE, "'inputs' must name at least one layer", true},
    {MR, MODEL LAYER("r", "relu") "inputs = [\"zz\"]\n", ANALYZE, "layer 'r': input 'zz' names no layer", true},
    {MR, MODEL LAYER("r", "relu") "inputs = [\"r\"]\n", ANALYZE, "layer 'r' takes its own output as input", true},
    {MR, MODEL LAYER("a", "relu") "inputs = [\"b\"]\n" LAYER("b", "relu") "inputs = [\"a\"]\n", ANALYZE,
     "form a cycle through their inputs", true},
    {MR, "name = \"m\"\n" LAYER("r", "relu"), ANALYZE, "model: missing required table [input]", true},
    {MR, "name = \"m\"\n[input]\nshape = []\n" LAYER("r", "relu"), ANALYZE, "'shape' must have at least one dimension", true},
    {MR, "name = \"m\"\n[input]\nshape = [4294967296, 4294967296]\n" LAYER("r", "relu"), ANALYZE,
     "has more elements than a 64-bit count holds (got 4294967296x4294967296)", true},
    {MR, MODEL, ANALYZE, "model: no [[layer]] entries", true},
    {MR, MODEL LAYER("r", "relu2"), ANALYZE, "layer 'r': unknown op 'relu2'", true},
    {MR, MODEL LAYER("r", "relu") LAYER("a", "add") "inputs = [\"r\"]\n", ANALYZE, "layer 'a' (add) takes at least 2 input(s), got 1", true},
    {MR, MODEL LAYER("l", "linear") "out_features = 8\n" LAYER("a", "add") "inputs = [\"l\", \"@input\"]\n", ANALYZE,
     "(input shapes: 8, 4)", true},
    {MR, "name = \"m\"\n[input]\nshape = [2147483648]\n" LAYER("l", "linear") "out_features = 1099511627776\n", ANALYZE,
     "layer 'l' (linear): its counts overflow 64 bits", true},
    {MR, "", "mkdir d.toml && RIDGE analyze ./d.toml", "is a folder, not a model file", false},
    {"sim/workload/ops/layout.cpp", "name = \"m\"\n[input]\nshape = [4, 8]\n[[layer]]\nname = \"s\"\nop = \"slice\"\naxes = [0]\nstarts = [0, 1]\nends = [2]\n",
     "RIDGE analyze ./in.toml", "starts, ends and steps must have one entry per axis", false},
    {"sim/workload/ops/layout.cpp", "name = \"m\"\n[input]\nshape = [4, 8]\n[[layer]]\nname = \"s\"\nop = \"slice\"\naxes = [5]\nstarts = [0]\nends = [2]\n",
     "RIDGE analyze ./in.toml", "'axes' must be in [-2, 2) for the input 4x8 (got 5)", false},
    {"sim/workload/ops/normalization.cpp", "name = \"m\"\n[input]\nshape = [4, 8]\n[[layer]]\nname = \"n\"\nop = \"rmsnorm\"\neps = -1\n",
     "RIDGE analyze ./in.toml", "'eps' must be positive", false},
    // the layer types ONNX import added (conv_transpose2d, instancenorm, resize)
#define IMAGE "name = \"m\"\n[input]\nshape = [3, 8, 8]\n[[layer]]\nname = \"l\"\n"
    {"sim/workload/ops/conv_transpose2d.cpp", IMAGE "op = \"conv_transpose2d\"\nout_channels = 4\n", "RIDGE analyze ./in.toml",
     "'kernel' is required", false},
    {"sim/workload/ops/conv_transpose2d.cpp", IMAGE "op = \"conv_transpose2d\"\nout_channels = 4\nkernel = 3\noutput_padding = 1\n",
     "RIDGE analyze ./in.toml", "'output_padding' must be smaller than the stride or the dilation", false},
    {"sim/workload/ops/normalization.cpp", IMAGE "op = \"instancenorm\"\neps = 0\n", "RIDGE analyze ./in.toml",
     "'eps' must be positive", false},
    {"sim/workload/ops/resize.cpp", IMAGE "op = \"resize\"\n", "RIDGE analyze ./in.toml", "'size' is required", false},
    {"sim/workload/ops/resize.cpp", IMAGE "op = \"resize\"\nsize = 16\nmode = \"cubic\"\n", "RIDGE analyze ./in.toml",
     "'mode' must be \"nearest\" or \"linear\"", false},
    {"sim/workload/ops/moe.cpp",
     "name = \"m\"\n[input]\nshape = [4, 8]\n[[layer]]\nname = \"r\"\nop = \"linear\"\nout_features = 4\n[[layer]]\nname = \"e\"\n"
     "op = \"moe\"\ninputs = [\"@input\", \"r\"]\nnum_experts = 4\ntop_k = 5\nintermediate_size = 16\n",
     "RIDGE analyze ./in.toml", "'top_k' must be at most num_experts = 4 (got 5)", false},
    // sim/base/units.cpp (datasheet quantities, here through --set compute.fp32)
    {"sim/base/units.cpp", "", SET "'compute.fp32='", "is empty", false},
    {"sim/base/units.cpp", "", SET "'compute.fp32=abc TFLOPS'", "does not start with a number", false},
    {"sim/base/units.cpp", "", SET "'compute.fp32=1e999 TFLOPS'", "is out of range", false},
    {"sim/base/units.cpp", "", SET "'compute.fp32=\"120\"'", "has no unit", false},
    {"sim/base/units.cpp", "", SET "'compute.fp32=1.2.3TFLOPS'", "is not a number followed by a unit", false},
    {"sim/base/units.cpp", "", SET "'compute.fp32=120 GB/s'", "is a bandwidth ('GB/s'), not a compute rate", false},
    {"sim/base/units.cpp", "", SET "'compute.fp32=120 XFLOPS'", "has an unknown unit 'XFLOPS'", false},
    {"sim/base/units.cpp", "", SET "'compute.fp32=-120 TFLOPS'", "must be positive", false},
    {"sim/base/units.cpp", "", SET "'compute.fp32=0 TFLOPS'", "must be greater than zero", false},
    {"sim/base/units.cpp", "", SET "'compute.fp32=1e300 PFLOPS'", "is too large", false},
    {"sim/base/units.cpp", "", SET "'overhead.kernel_launch=1e-300 ps'", "is too close to zero to compute with", false},
    {"sim/base/units.cpp", "name = \"h\"\nkind = \"gpu\"\nsource = \"t\"\n[compute]\nfp32 = \"1 TFLOPS\"\n[[memory]]\nname = \"D\"\nbandwidth = \"1 TB/s\"\n",
     "RIDGE analyze mlp --hw in.toml", "missing required key 'capacity'", true},
    {"sim/base/units.cpp", "", SET "'compute.fp32=120'", "must be a number with a unit in quotes", false},
    {"sim/base/units.cpp", "", SET "'compute.fp32=12 0 TFLOPS'", "(got \"12 0 TFLOPS\")", false},
    // sim/engine/measured_layers.cpp (`ridge calibrate`'s CSV)
    {"sim/engine/measured_layers.cpp", CSV_HEADER "a,l,linear,fp32,abc,1,1\n", CALIBRATE, "column 'flops' must be a number (got 'abc')", true, "in.csv"},
    {"sim/engine/measured_layers.cpp", "model,model,layer\n", CALIBRATE, "column 'model' appears twice in the header", true, "in.csv"},
    {"sim/engine/measured_layers.cpp", "model,layer,op_class,dtype,flops,seconds\n", CALIBRATE, "missing column 'input_bytes' in the header", true, "in.csv"},
    {"sim/engine/measured_layers.cpp", CSV_HEADER "a,l,linear\n", CALIBRATE, "row has 3 fields, the header 7", true, "in.csv"},
    {"sim/engine/measured_layers.cpp", CSV_HEADER "a,l,linear,fp32,1,1,0\n", CALIBRATE, "column 'seconds' must be greater than zero", true, "in.csv"},
    {"sim/engine/measured_layers.cpp", CSV_HEADER ",l,linear,fp32,1,1,1\n", CALIBRATE, "column 'model' is empty", true, "in.csv"},
    {"sim/engine/measured_layers.cpp", CSV_HEADER "a,l,lineer,fp32,1,1,1\n", CALIBRATE, "unknown op class 'lineer'", true, "in.csv"},
    {"sim/engine/measured_layers.cpp", CSV_HEADER "a,l,linear,fp13,1,1,1\n", CALIBRATE, "unknown dtype 'fp13'", true, "in.csv"},
    {"sim/engine/measured_layers.cpp", "model,layer,op_class,dtype,flops,bytes,seconds,batch\na,l,linear,fp32,1,1,1,1.5\n", CALIBRATE,
     "column 'batch' must be a whole number (got 1.5)", true, "in.csv"},
    {"sim/engine/measured_layers.cpp", "model,layer,op_class,dtype,flops,bytes,seconds,kernels\na,l,linear,fp32,1,1,1,2.5\n", CALIBRATE,
     "column 'kernels' must be a whole number (got 2.5)", true, "in.csv"},
    {"sim/engine/measured_layers.cpp", "# only a comment\n", CALIBRATE, "no header line", false, "in.csv"},
    {"sim/engine/measured_layers.cpp", CSV_HEADER, CALIBRATE, "no measured rows after the header", true, "in.csv"},
    {"sim/engine/measured_layers.cpp", "", "RIDGE calibrate missing.csv --hw v100", "cannot read measured layers 'missing.csv'", false},
    // sim/workload/onnx_reader.cpp (protobuf text, written as the binary in.onnx)
    {"sim/workload/onnx_reader.cpp", "", "RIDGE import ./missing.onnx -o out.toml", "cannot read the ONNX file", false},
    {"sim/workload/onnx_reader.cpp", "", "printf 'not onnx' > in.onnx && " ONNX, "is not a readable ONNX model (truncated, or not ONNX)", false},
    {"sim/workload/onnx_reader.cpp", "ir_version: 8 graph { name: \"g\" }", ONNX, "is not an ONNX model: it holds no graph nodes", false, "in.onnx"},
    {"sim/workload/onnx_reader.cpp", ONNX_GRAPH("input: \"x\" output: \"y\" op_type: \"MaxPool\"", ""), ONNX, "node 'n' (MaxPool): has no 'kernel_shape' attribute", false, "in.onnx"},
    {"sim/workload/onnx_reader.cpp", ONNX_GRAPH("input: \"x\" output: \"y\" op_type: \"MaxPool\" attribute { name: \"kernel_shape\" type: INTS ints: 2 ints: 2 } "
                                                "attribute { name: \"strides\" type: INTS ints: 0 }", ""),
     ONNX, "node 'n' (MaxPool): 'strides' must be two values from 1 to 65536 (got [0])", false, "in.onnx"},
    {"sim/workload/onnx_reader.cpp", ONNX_GRAPH("input: \"x\" output: \"y\" op_type: \"Transpose\" attribute { name: \"perm\" type: INTS ints: 0 ints: 1 ints: 1 ints: 3 }", ""),
     ONNX, "node 'n' (Transpose): 'perm' [0x1x1x3] is not a permutation of the 4 axes", false, "in.onnx"},
    {"sim/workload/onnx_reader.cpp", ONNX_GRAPH("input: \"x\" op_type: \"Relu\"", ""), ONNX, "node 'n' (Relu): the node has no output", false, "in.onnx"},
    {"sim/workload/onnx_reader.cpp",
     ONNX_GRAPH("input: \"a\" input: \"b\" input: \"c\" output: \"y\" op_type: \"Range\"",
                ONNX_INT("a", "int64_data: 0") ONNX_INT("b", "int64_data: 4") ONNX_INT("c", "int64_data: 0")),
     ONNX, "node 'n' (Range): start, limit and delta must be one integer each, delta not 0", false, "in.onnx"},
    {"sim/workload/onnx_reader.cpp",
     ONNX_GRAPH("input: \"d\" input: \"i\" output: \"y\" op_type: \"Gather\"",
                ONNX_INT("d", "dims: 2 int64_data: 2 int64_data: 3") ONNX_INT("i", "int64_data: 5")),
     ONNX, "node 'n' (Gather): index 5 is out of range for 2 values", false, "in.onnx"},
    {"sim/workload/onnx_reader.cpp",
     ONNX_GRAPH("input: \"x\" output: \"y\" op_type: \"Split\" attribute { name: \"axis\" type: INT i: 1 } "
                "attribute { name: \"split\" type: INTS ints: 1 ints: 2 }", ""),
     ONNX, "node 'n' (Split): 'split' gives 2 sizes for 1 outputs", false, "in.onnx"},
    {"sim/workload/onnx_reader.cpp",
     ONNX_GRAPH("input: \"x\" output: \"y\" op_type: \"Relu\"",
                "initializer { name: \"w\" dims: 1099511627776 dims: 1099511627776 data_type: 1 }"),
     ONNX, "a tensor's element count overflows 64 bits", false, "in.onnx"},
    // hw/descriptor_reader.cpp (hardware descriptors and --set overrides)
    {"hw/descriptor_reader.cpp", HW_HEAD "[compute]\nfp13 = \"1 TFLOPS\"\n" HW_MEM, ANALYZE_HW, "unknown dtype 'fp13'", true},
    {"hw/descriptor_reader.cpp", HW_HEAD HW_DERIVED HW_MEM, ANALYZE_HW, "compute: missing required key 'flops_per_cycle'", true},
    {"hw/descriptor_reader.cpp", HW_HEAD HW_DERIVED "flops_per_cycle = {}\n" HW_MEM, ANALYZE_HW, "names no dtype", true},
    {"hw/descriptor_reader.cpp", HW_HEAD HW_DERIVED "flops_per_cycle = { fp32 = 0 }\n" HW_MEM, ANALYZE_HW, "must be greater than zero (got 0)", true},
    {"hw/descriptor_reader.cpp", HW_HEAD HW_DERIVED "fp32 = \"1 TFLOPS\"\nflops_per_cycle = { fp32 = 8 }\n" HW_MEM, ANALYZE_HW,
     "is given both as a peak (compute.fp32) and by flops_per_cycle", true},
    {"hw/descriptor_reader.cpp", HW_HEAD HW_DERIVED "flops_per_cycle = { fp32 = 1e300 }\n" HW_MEM, ANALYZE_HW,
     "gives a peak too large to compute with (got 1e+300)", true},
    {"hw/descriptor_reader.cpp", HW_HEAD "[compute]\n" HW_MEM, ANALYZE_HW, "compute: no peak given", true},
    {"hw/descriptor_reader.cpp", HW_HEAD HW_COMPUTE "[[memory]]\nname = \"\"\ncapacity = \"1 GiB\"\nbandwidth = \"1 TB/s\"\n", ANALYZE_HW,
     "memory level: 'name' must not be empty", true},
    {"hw/descriptor_reader.cpp", HW_HEAD HW_COMPUTE "[[memory]]\nname = \"D.1\"\ncapacity = \"1 GiB\"\nbandwidth = \"1 TB/s\"\n", ANALYZE_HW,
     "must not contain '.' (got 'D.1')", true},
    {"hw/descriptor_reader.cpp", HW_HEAD HW_COMPUTE HW_MEM HW_MEM, ANALYZE_HW, "'D' names two memory levels", true},
    {"hw/descriptor_reader.cpp", HW_HEAD HW_COMPUTE HW_MEM "channels = 2\n", ANALYZE_HW, "is given together with channels / transfer_rate", true},
    {"hw/descriptor_reader.cpp", HW_HEAD HW_COMPUTE HW_MEM "[efficiency]\ncompute = 2.0\nmemory = 0.5\nsource = \"s\"\n", ANALYZE_HW,
     "must be a fraction in (0, 1] (got 2)", true},
    {"hw/descriptor_reader.cpp", "name = \"\"\nkind = \"gpu\"\nsource = \"t\"\n" HW_COMPUTE HW_MEM, ANALYZE_HW, "descriptor: 'name' must not be empty", true},
    {"hw/descriptor_reader.cpp", "name = \"h\"\nkind = \"tpu\"\nsource = \"t\"\n" HW_COMPUTE HW_MEM, ANALYZE_HW,
     "must be \"gpu\" or \"cpu\" (got \"tpu\")", true},
    {"hw/descriptor_reader.cpp", HW_HEAD "model = \"\"\n" HW_COMPUTE HW_MEM, ANALYZE_HW, "descriptor: 'model' must not be empty", true},
    {"hw/descriptor_reader.cpp", HW_HEAD HW_MEM, ANALYZE_HW, "descriptor: missing required table [compute]", true},
    {"hw/descriptor_reader.cpp", HW_HEAD HW_COMPUTE, ANALYZE_HW, "descriptor: missing required [[memory]] levels", true},
    {"hw/descriptor_reader.cpp", HW_HEAD "memory = 1\n" HW_COMPUTE, ANALYZE_HW, "must be an array of tables", true},
    {"hw/descriptor_reader.cpp", HW_HEAD "sockets = 2\n" HW_COMPUTE HW_MEM, ANALYZE_HW, "only multiplies derived figures", true},
    {"hw/descriptor_reader.cpp", HW_HEAD HW_COMPUTE HW_MEM "[efficiency]\ncompute = 0.5\nmemory = 0.5\nsource = \"\"\n", ANALYZE_HW,
     "must say where the factors come from", true},
    {"hw/descriptor_reader.cpp", "", SET "compute.fp32", "an override must be KEY=VALUE (got 'compute.fp32')", false},
    {"hw/descriptor_reader.cpp", "", SET "=1", "an override has no key before '='", false},
    {"hw/descriptor_reader.cpp", "", SET "'compute.fp32=\"1\n2 TFLOPS\"'", "an override value must be one line", false},
    {"hw/descriptor_reader.cpp", "", SET "'memory.X.bandwidth=\"1 TB/s\"'", "no memory level 'X' to override", false},
    {"hw/descriptor_reader.cpp", "", SET "'comptue.fp32=\"1 TFLOPS\"'", "unknown hardware key 'comptue.fp32'", false},
    // sim/base/input_file.cpp
    {"sim/base/input_file.cpp", "name = \"x\"\n", "truncate -s 1G in.toml && RIDGE analyze ./in.toml", "more than the limit of 16 MiB", false},
    {"sim/base/input_file.cpp", "", "mkfifo f && (head -c 17000000 /dev/zero > f &) && RIDGE analyze ./f", "the input is more than the limit of 16 MiB",
     false},
    // plots/sweep_figure.cpp: the figure's axes as chosen (in.toml holds a sweep CSV here)
    {"plots/sweep_figure.cpp", PLOT_CSV, "RIDGE plot sweep in.toml --x hardware --output o.png",
     "--x hardware: not a column that can be numbers on the x axis", false},
    {"plots/sweep_figure.cpp", PLOT_CSV, "RIDGE plot sweep in.toml --colour dtype --output o.png",
     "--colour dtype: every row drawn has dtype=fp16", false},
    {"plots/sweep_figure.cpp", PLOT_CSV, "RIDGE plot sweep in.toml --y bound --output o.png",
     "--y bound: not a quantity of this CSV", false},
};

// Throw sites per reader that this table does not provoke: covered by the other bad-input
// tests (test_bad_input, test_defect_regressions, test_limits, test_descriptor,
// test_sweep_file, test_plot) or not yet by a row here. Lower a number when you add rows;
// a new throw site must come with a row.
const std::map<std::string, int> kBacklog = {
    {"sim/workload/model_reader.cpp", 3}, {"sim/workload/ops/conv2d.cpp", 1},  {"sim/workload/ops/embedding.cpp", 1},
    {"sim/workload/ops/layout.cpp", 6},    {"sim/workload/ops/normalization.cpp", 2}, {"sim/workload/ops/pooling.cpp", 3},
    {"sim/workload/ops/structural.cpp", 3}, {"hw/descriptor_reader.cpp", 8},     {"sim/base/toml_fields.cpp", 20},
    {"plots/sweep_table.cpp", 14},         {"plots/sweep_figure.cpp", 3},        {"plots/sweep_plot.cpp", 1},
    {"sim/workload/onnx_reader.cpp", 69},  // +1: Unsqueeze's axis range (branch onnxerr has its row)
};

// A row's file as written: an `.onnx` row's text is a ModelProto in protobuf text format.
std::string onnx_binary_if_named(const std::string& name, const std::string& text) {
  if (!name.ends_with(".onnx")) return text;
  onnx::ModelProto model;
  if (!google::protobuf::TextFormat::ParseFromString(text, &model)) ADD_FAILURE() << "bad protobuf text in a row: " << text;
  return model.SerializeAsString();
}

class InputErrorTable : public ridge_test::FolderTest {
 protected:
  // Runs rows [first, last) of `reader`'s rows (tests stay under 2 s each).
  void run_rows(const std::string& reader, int first = 0, int last = 1000) {
    int rows = 0, index = -1;
    for (const Case& c : kCases) {
      if (c.reader != reader) continue;
      ++index;
      if (index < first || index >= last) continue;
      ++rows;
      SCOPED_TRACE(c.command);
      if (*c.file) write(c.name, onnx_binary_if_named(c.name, c.file));
      // A row that is just ridge runs as the shell's own process (`exec`): one process fewer.
      std::string cmd = std::string(std::string_view(c.command).starts_with("RIDGE") ? "exec " : "") + c.command;
      for (size_t at; (at = cmd.find("RIDGE")) != std::string::npos;) cmd.replace(at, 5, "'" RIDGE_BINARY "'");
      int raw = std::system(("cd '" + root_.string() + "' && " + cmd + " >out.txt 2>err.txt").c_str());
      std::string err = ridge_test::slurp(root_ / "err.txt");
      EXPECT_TRUE(WIFEXITED(raw) && WEXITSTATUS(raw) == 2) << err;
      std::istringstream lines(err);
      std::string first, second, third;
      std::getline(lines, first);
      EXPECT_EQ(first.rfind("error: ", 0), 0u) << err;
      EXPECT_NE(first.find(c.message), std::string::npos) << "expected '" << c.message << "' in: " << first;
      if (c.located) {
        std::string file = first.substr(0, first.find(':', 7)).substr(std::min<size_t>(7, first.size()));
        EXPECT_TRUE(file == c.name || file == std::string("./") + c.name) << first;
        EXPECT_TRUE(std::regex_search(first, std::regex("^error: [^:]+:[0-9]+:[0-9]+: "))) << first;
      }
      if (std::getline(lines, second)) {
        EXPECT_EQ(second.rfind("hint: ", 0), 0u) << err;
      }
      EXPECT_FALSE(std::getline(lines, third)) << err;
      EXPECT_EQ(ridge_test::slurp(root_ / "out.txt"), "");
      std::filesystem::remove_all(root_);
      std::filesystem::create_directories(root_);
    }
    EXPECT_GT(rows, 0);
  }
};

TEST_F(InputErrorTable, SweepFileLists) { run_rows("sim/engine/sweep_file.cpp", 0, 12); }
TEST_F(InputErrorTable, SweepFileRangesAndLimits) { run_rows("sim/engine/sweep_file.cpp", 12); }
TEST_F(InputErrorTable, Units) { run_rows("sim/base/units.cpp"); }
TEST_F(InputErrorTable, InputFile) { run_rows("sim/base/input_file.cpp"); }
TEST_F(InputErrorTable, ModelParamsAndBlocks) { run_rows(MR, 0, 10); }
TEST_F(InputErrorTable, ModelNamesTiesAndInputs) { run_rows(MR, 10, 19); }
TEST_F(InputErrorTable, ModelShapesAndOps) { run_rows(MR, 19); }
TEST_F(InputErrorTable, DescriptorKeys) { run_rows("hw/descriptor_reader.cpp", 0, 13); }
TEST_F(InputErrorTable, DescriptorTablesAndOverrides) { run_rows("hw/descriptor_reader.cpp", 13); }
TEST_F(InputErrorTable, MeasuredLayersCsv) { run_rows("sim/engine/measured_layers.cpp"); }
TEST_F(InputErrorTable, OnnxModels) { run_rows("sim/workload/onnx_reader.cpp"); }
TEST_F(InputErrorTable, ModelOps) {
  for (const char* reader : {"sim/workload/ops/layout.cpp", "sim/workload/ops/normalization.cpp", "sim/workload/ops/moe.cpp"})
    run_rows(reader);
}
TEST_F(InputErrorTable, ImportedLayerTypes) {
  run_rows("sim/workload/ops/conv_transpose2d.cpp");
  run_rows("sim/workload/ops/resize.cpp");
}
TEST_F(InputErrorTable, SweepPlotChoices) { run_rows("plots/sweep_figure.cpp"); }

// Lines of `source` that raise an input error: `throw InputError(` or a `fail(` call
// (TomlFields::fail, or units' local `fail`).
int throw_sites(const std::string& source) {
  std::string text = ridge_test::slurp(std::filesystem::path(RIDGE_SOURCE_DIR) / source);
  std::istringstream lines(text);
  static const std::regex site(R"(throw InputError\(|(^|[^A-Za-z_])fail\()");
  static const std::regex definition(R"(void TomlFields::fail|\[\[noreturn\]\] void fail)");
  int n = 0;
  for (std::string line; std::getline(lines, line);)
    if (std::regex_search(line, site) && !std::regex_search(line, definition)) ++n;
  return n;
}

TEST(InputErrorCoverage, EveryReaderThrowSiteHasARowOrIsInTheBacklog) {
  std::map<std::string, int> rows;
  for (const Case& c : kCases) ++rows[c.reader];
  std::map<std::string, int> expected = kBacklog;
  for (const auto& [reader, n] : rows) expected[reader] += n;
  for (const auto& [reader, n] : expected) {
    int sites = throw_sites(reader);
    EXPECT_EQ(sites, n) << reader << " has " << sites << " input-error throw sites; the table has " << rows[reader]
                        << " rows for it and the backlog " << (kBacklog.count(reader) ? kBacklog.at(reader) : 0)
                        << ": a new throw needs a row in kCases (or, if you removed one, lower the backlog)";
  }
}

}  // namespace
