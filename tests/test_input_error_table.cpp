// Bad-input classes as a table: each row is one input error a reader can raise, the
// command that provokes it through the real binary, and the message it must print
// (exit 2, one `error:` line located in the file where there is one, at most a `hint:`).
// A second test counts the input-error throw sites (`throw InputError` and `fail(`) in
// every source file under sim/, hw/ and plots/ and fails when one has more sites than rows
// here plus its recorded backlog of sites not yet in this table: a new throw needs a row.
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
#define PSW "models = [\"gpt3\"]\nsystem = [\"dgx-a100\"]\n"
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
#define TF "sim/base/toml_fields.cpp"
#define LAYOUT "sim/workload/ops/layout.cpp"
#define CHW_MODEL "name = \"m\"\n[input]\nshape = [3, 8, 8]\n"
#define CSV_HEADER "model,layer,op_class,dtype,flops,bytes,seconds\n"
#define CALIBRATE "RIDGE calibrate in.csv --hw v100"
// ONNX models in protobuf text format. ONNX_MODEL: a model of opset import OPSET and graph
// fields GRAPH; ONNX_NODES: a graph of input x (1x3x8x8) and output y, NODES first (in
// order), then EXTRA graph fields (initializers); ONNX_GRAPH: of one node "n" of fields NODE.
#define ONNX_MODEL(OPSET, GRAPH) "ir_version: 8 " OPSET " graph { " GRAPH " }"
#define ONNX_X                                                                                                    \
  "input { name: \"x\" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 3 } "     \
  "dim { dim_value: 8 } dim { dim_value: 8 } } } } } "
#define ONNX_NODES(NODES, EXTRA) ONNX_MODEL("opset_import { version: 13 }", NODES ONNX_X "output { name: \"y\" } " EXTRA)
#define ONNX_NODE(NAME, FIELDS) "node { name: \"" NAME "\" " FIELDS " } "
#define ONNX_GRAPH(NODE, EXTRA) ONNX_NODES(ONNX_NODE("n", NODE), EXTRA)
#define ONNX_INT(NAME, VALUES) "initializer { name: \"" NAME "\" data_type: 7 " VALUES " } "
#define ONNX_FLOAT(NAME, FIELDS) "initializer { name: \"" NAME "\" data_type: 1 " FIELDS " } "
// A Loop of TRIPS trips carrying a sequence (from SequenceEmpty), its body giving OUT back.
#define ONNX_SEQUENCE_LOOP(TRIPS, OUT)                                                                               \
  ONNX_NODES(ONNX_NODE("e", "output: \"s\" op_type: \"SequenceEmpty\"")                                               \
             ONNX_NODE("n", "input: \"m\" input: \"\" input: \"s\" output: \"s2\" op_type: \"Loop\" attribute { name: \"body\" " \
                            "type: GRAPH g { name: \"b\" input { name: \"i\" } input { name: \"c\" } input { name: \"q\" } "   \
                            "output { name: \"c\" } output { name: \"" OUT "\" } } }"),                                   \
             ONNX_INT("m", "int64_data: " TRIPS))
#define ONNX_INTS(NAME, VALUES) "attribute { name: \"" NAME "\" type: INTS " VALUES " } "
#define ONNX_ATTR_INT(NAME, VALUE) "attribute { name: \"" NAME "\" type: INT i: " VALUE " } "
#define ONNX_ATTR_STRING(NAME, VALUE) "attribute { name: \"" NAME "\" type: STRING s: \"" VALUE "\" } "
// Node t: x transposed to [3, 1, 8, 8], its batch on axis 1; node f: x flattened to [1, 192].
#define ONNX_T ONNX_NODE("t", "input: \"x\" output: \"t\" op_type: \"Transpose\" " ONNX_INTS("perm", "ints: 1 ints: 0 ints: 2 ints: 3"))
#define ONNX_F ONNX_NODE("f", "input: \"x\" output: \"f\" op_type: \"Flatten\"")
#define ONNX_RELU ONNX_GRAPH("input: \"x\" output: \"y\" op_type: \"Relu\"", "")
#define ONNX_OP(OP) "output: \"y\" op_type: \"" OP "\" "
#define ONNX_SOURCES "sim/workload/onnx/"  // the ONNX reader's files, whose errors name the .onnx file
#define ONNX "RIDGE analyze ./in.onnx"
#define PLOT_CSV "hardware,dtype,batch,samples_per_s,bound\nv100,fp16,1,10,compute\na100,fp16,1,20,compute\n"

const Case kCases[] = {
    // sim/engine/sweep_file.cpp
    {"sim/engine/sweep_file.cpp", "hardware = [\"v100\"]\n", "RIDGE sweep in.toml", "missing required list 'models'", true},
    {"sim/engine/sweep_file.cpp", "models = \"mlp\"\nhardware = [\"v100\"]\n", "RIDGE sweep in.toml", "'models' must be a list", true},
    {"sim/engine/sweep_file.cpp", "models = []\nhardware = [\"v100\"]\n", "RIDGE sweep in.toml", "'models' is an empty list", true},
    {"sim/engine/sweep_file.cpp", "models = [1]\nhardware = [\"v100\"]\n", "RIDGE sweep in.toml", "every element of 'models' must be a string", true},
    {"sim/engine/sweep_file.cpp", SWEEP "dtype = [\"fp13\"]\n", "RIDGE sweep in.toml", "sweep: unknown dtype 'fp13'", true},
    {"sim/engine/sweep_file.cpp", SWEEP "phase = [\"prefill\"]\nkv_dtype = [\"tf32\"]\n", "RIDGE sweep in.toml", "sweep: unknown kv_dtype 'tf32'", true},
    {"sim/engine/sweep_file.cpp", SWEEP "kv_dtype = [\"fp8\"]\n", "RIDGE sweep in.toml", "'kv_dtype' applies to phases prefill and decode only", true},
    {"sim/engine/sweep_file.cpp", SWEEP "[cost]\nbasis = \"lease\"\n", "RIDGE sweep in.toml", "'basis' must be purchase or cloud (got 'lease')", true},
    {"sim/engine/sweep_file.cpp", SWEEP "[cost]\nyears = 0\n", "RIDGE sweep in.toml", "'years' must be in (0, 100]", true},
    {"sim/engine/sweep_file.cpp", SWEEP "[cost]\nusd_per_kwh = -1\n", "RIDGE sweep in.toml", "'usd_per_kwh' must be in [0, 100]", true},
    {"sim/engine/sweep_file.cpp", SWEEP "weight_dtype = [\"int2\"]\n", "RIDGE sweep in.toml", "sweep: unknown weight_dtype 'int2'", true},
    {"sim/engine/sweep_file.cpp", SWEEP "phase = [\"training\"]\nweight_dtype = [\"int4\"]\n", "RIDGE sweep in.toml",
     "'weight_dtype' quantizes weights for inference", true},
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
    {"sim/engine/sweep_file.cpp", SWEEP VARY "unit = \"TB/s\"\nfrom = 1\nto = 1.00000000001\ncount = 3\n", "RIDGE sweep in.toml",
     "values 2 and 3 are both 1.00000000001 at the 12 significant digits", true},
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
    // Parallel sweeps (a sweep file with `system`): the lists, [parallel] and [[vary]] parallel.KEY.
    {"sim/engine/sweep_file.cpp", PSW "[parallel]\ntp = 1979-05-27\n", "RIDGE sweep in.toml", "parallel.tp: a value must be a number, true / false or a string", true},
    {"sim/engine/sweep_file.cpp", PSW "hardware = [\"a100\"]\n", "RIDGE sweep in.toml", "'hardware' does not apply to a parallel sweep", true},
    {"sim/engine/sweep_file.cpp", PSW "gpus = [0]\n", "RIDGE sweep in.toml", "a gpus value must be a positive integer", true},
    {"sim/engine/sweep_file.cpp", PSW "[parallel]\ntp = []\n", "RIDGE sweep in.toml", "'tp' is an empty list", true},
    {"sim/engine/sweep_file.cpp", SWEEP "[[vary]]\nkey = \"parallel.tp\"\nvalues = [2]\n", "RIDGE sweep in.toml", "'parallel.tp' needs a parallel sweep", true},
    {"sim/engine/sweep_file.cpp", PSW "[[vary]]\nkey = \"parallel.xp\"\nvalues = [2]\n", "RIDGE sweep in.toml", "unknown plan key 'parallel.xp'", true},
    {"sim/engine/sweep_file.cpp", PSW "[parallel]\ntp = 2\n[[vary]]\nkey = \"parallel.tp\"\nvalues = [4]\n", "RIDGE sweep in.toml",
     "'parallel.tp' is also given in [parallel]", true},
    {"sim/engine/sweep_file.cpp", SWEEP "gpus = [8]\n", "RIDGE sweep in.toml", "'gpus' needs a parallel sweep", true},
    {"sim/engine/sweep_file.cpp", PSW VARY "values = [\"1 TB/s\"]\n", "RIDGE sweep in.toml", "'memory.HBM2.bandwidth' does not apply to a parallel sweep", true},
    {"sim/parallel/parallel_sweep.cpp", PSW "[parallel]\nzero = 5\n", "RIDGE sweep in.toml", "parallel.zero must be an integer from 0 to 3 (got '5')", true},
    {"sim/parallel/parallel_sweep.cpp", PSW "[parallel]\nexpert_imbalance = 0.5\n", "RIDGE sweep in.toml",
     "parallel.expert_imbalance must be a number of at least 1, the busiest expert rank's load over the mean (got '0.5')", true},
    {"sim/parallel/parallel_sweep.cpp", PSW "[parallel]\noverlap = 1\n", "RIDGE sweep in.toml", "parallel.overlap must be true or false (got '1')", true},
    {"sim/parallel/parallel_sweep.cpp", PSW "[parallel]\nrecompute = \"fast\"\n", "RIDGE sweep in.toml", "parallel.recompute: unknown policy 'fast'", true},
    {"sim/parallel/parallel_sweep.cpp", "models = [\"gpt3\"]\nsystem = [\"dgx-z\"]\n", "RIDGE sweep in.toml", "unknown system 'dgx-z'", true},
    {"sim/cli/cmd_sweep.cpp", PSW, "RIDGE sweep in.toml --per-layer", "--per-layer does not apply to a parallel sweep", false},
    {"sim/cli/cmd_sweep.cpp", PSW, "RIDGE sweep in.toml --columns tp", "--columns does not apply to a parallel sweep", false},
    // sim/workload/model_reader.cpp and ops (most are in the backlog below)
    {"sim/workload/model_reader.cpp", "name = \"m\"\nmax_positions = 0\n[input]\nshape = [4, 8]\n[[layer]]\nname = \"n\"\nop = \"rmsnorm\"\n",
     "RIDGE analyze ./in.toml", "'max_positions' must be a positive integer (got 0)", false},
    {MR, MODEL LAYER("r", "relu") "weight_dtype = \"int3\"\n", ANALYZE, "'weight_dtype' names no data type ('int3')", true},
    {"sim/workload/model_reader.cpp", "name = \"m\"\ndtype = \"fp13\"\n[input]\nshape = [4]\n[[layer]]\nname = \"r\"\nop = \"relu\"\n",
     "RIDGE analyze ./in.toml", "unknown data type 'fp13'", true},
    {"sim/workload/model_reader.cpp", "name = \"m\"\n[params]\na = \"a + 1\"\n[input]\nshape = [4]\n[[layer]]\nname = \"r\"\nop = \"relu\"\n",
     "RIDGE analyze ./in.toml", "[params]: 'a' is defined in terms of itself", false},
    {"sim/workload/model_reader.cpp", "name = \"m\"\n[params]\na = 1.5\n[input]\nshape = [4]\n[[layer]]\nname = \"r\"\nop = \"relu\"\n",
     "RIDGE analyze ./in.toml", "[params]: 'a' must be an integer or an expression string", false},
    {"sim/workload/model_reader.cpp", "name = \"m\"\n[input]\nshape = [4]\n[[layer]]\nname = \"r\"\nop = \"relu\"\n",
     "RIDGE analyze ./in.toml --set model.b=3", "the model has no parameter 'b' to set", false},
    {MR, "name = \"m\"\nlayer = [1]\n[input]\nshape = [4]\n", ANALYZE, "each entry of 'layer' / 'body' must be a table", true},
    {"sim/workload/stacked_layer.cpp", MODEL LAYER("r", "relu") "images = 0\n", ANALYZE, "'images' must be at least 1 (got 0)", true},
    {"sim/workload/stacked_layer.cpp", MODEL LAYER("r", "relu") "trips = 0\n", ANALYZE, "'trips' must be at least 1 (got 0)", true},
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
    {MR, "name = \"t\"\n[input]\nshape = [4]\n" LAYER("a", "linear") "out_features = 4\ntied_to = \"b\"\n" LAYER("b", "linear")
     "out_features = 4\ntied_to = \"a\"\n", ANALYZE, "layer 'a': tied_to 'b', which is itself tied to 'a'", true},
    {MR, "", "{ echo 'name = \"m\"'; echo '[params]'; echo 'a70 = 1'; for i in $(seq 0 69); do echo \"a$i = \\\"a$((i + 1))\\\"\"; done; "
     "echo '[input]'; echo 'shape = [4]'; } > in.toml && " ANALYZE, "parameters deep", true},
    {MR, MODEL LAYER("a", "linear") "out_features = 4\n" LAYER("l", "linear") "out_features = 8\ntied_to = \"a\"\n", ANALYZE,
     "layer 'l': its weight [8, 4] cannot be tied to 'a', whose weight is [4, 4]", true},
    {MR, "name = \"t\"\n[input]\nshape = [4, 8, 8]\n" LAYER("a", "conv2d") "out_channels = 4\nkernel = 3\n" LAYER("b", "conv2d")
     "out_channels = 4\nkernel = 1\ntied_to = \"a\"\n", ANALYZE,
     "layer 'b' (conv2d): tied_to 'a' (conv2d), which is not a conv of the same op, weight and bias", true},
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
    {"sim/workload/ops/resize.cpp", "name = \"m\"\n[input]\nshape = [2, 8, 8]\n[[layer]]\nname = \"g\"\nop = \"transpose\"\nperm = [1, 2, 0]\n"
     "[[layer]]\nname = \"s\"\nop = \"grid_sample\"\ninputs = [\"@input\", \"g\"]\nmode = \"area\"\n",
     ANALYZE, "must be \"nearest\", \"linear\" or \"cubic\"", false},
    {"sim/workload/ops/layout.cpp", "name = \"m\"\n[input]\nshape = [4, 8]\n[[layer]]\nname = \"s\"\nop = \"slice\"\naxes = [0]\nstarts = [0, 1]\nends = [2]\n",
     "RIDGE analyze ./in.toml", "starts, ends and steps must have one entry per axis", false},
    {"sim/workload/ops/layout.cpp", "name = \"m\"\n[input]\nshape = [4, 8]\n[[layer]]\nname = \"s\"\nop = \"slice\"\naxes = [5]\nstarts = [0]\nends = [2]\n",
     "RIDGE analyze ./in.toml", "'axes' must be in [-2, 2) for the input 4x8 (got 5)", false},
    {"sim/workload/ops/normalization.cpp", "name = \"m\"\n[input]\nshape = [4, 8]\n[[layer]]\nname = \"n\"\nop = \"rmsnorm\"\neps = -1\n",
     "RIDGE analyze ./in.toml", "'eps' must be positive", false},
    {MR, MODEL, "p=layer; for i in $(seq 17); do printf '[[%s]]\\nname = \"b\"\\n' $p; p=$p.body; done >> in.toml && "
                "printf '[[%s]]\\nname = \"r\"\\nop = \"relu\"\\n' $p >> in.toml && " ANALYZE,
     "blocks are nested more than 16 deep", true},
    {MR, "", "ln -s loop.toml loop.toml && RIDGE analyze ./loop.toml", "./loop.toml: cannot read the model file", false},
    {MR, "name = \"m\"\nnotes = [\"a\\u001bb\"]\n[input]\nshape = [4]\n" LAYER("r", "relu"), ANALYZE,
     "'notes' must not contain control characters", true},
    // sim/workload/ops: the checks of each layer type's attributes
    {LAYOUT, "name = \"m\"\n[input]\nshape = [4]\n" LAYER("c", "concat") "inputs = [\"@input\", \"@input\"]\naxis = 5\n", ANALYZE,
     "layer 'c' (concat): 'axis' must be in [-1, 1) for the input 4 (got 5)", true},
    {LAYOUT, "name = \"m\"\n[input]\nshape = [4, 8]\n" LAYER("t", "transpose") "perm = [0, 0]\n", ANALYZE,
     "'perm' must list each dimension 0..1 exactly once", true},
    {LAYOUT, MODEL LAYER("r", "reshape") "shape = []\n", ANALYZE, "'shape' must have at least one dimension", true},
    {LAYOUT, MODEL LAYER("r", "reshape") "shape = [-1, -1]\n", ANALYZE, "'shape' may hold only one -1", true},
    {LAYOUT, MODEL LAYER("r", "reshape") "shape = [0, 4]\n", ANALYZE, "'shape' dimensions must be positive, or -1 once (got 0)", true},
    {LAYOUT, "name = \"m\"\n[input]\nshape = [4, 8]\n" LAYER("s", "select") "axis = 0\nindex = 9\n", ANALYZE,
     "'index' must be in [-4, 4) for axis 0 of the input 4x8 (got 9)", true},
    {"sim/workload/ops/pooling.cpp", CHW_MODEL LAYER("p", "max_pool2d"), ANALYZE, "layer 'p' (max_pool2d): 'kernel' is required", true},
    {"sim/workload/ops/pooling.cpp", CHW_MODEL LAYER("p", "avg_pool2d") "kernel = 2\npadding = 2\n", ANALYZE,
     "'padding' must be at most half the kernel", true},
    {"sim/workload/ops/pooling.cpp", CHW_MODEL LAYER("p", "adaptive_avg_pool2d"), ANALYZE, "'output_size' is required", true},
    {"sim/workload/ops/spatial.cpp", CHW_MODEL LAYER("c", "conv2d") "out_channels = 4\n", ANALYZE, "layer 'c' (conv2d): 'kernel' is required", true},
    {"sim/workload/ops/spatial.cpp", "name = \"m\"\n[input]\nshape = [3, 4, 8, 8]\n" LAYER("c", "conv3d") "out_channels = 4\nkernel = [3, 3]\n", ANALYZE,
     "'kernel' must be an integer or a triple [d, h, w] of integers", true},
    {"sim/workload/ops/spatial.cpp", "name = \"m\"\n[input]\nshape = [3, 8]\n" LAYER("p", "max_pool1d") "kernel = [0]\n", ANALYZE,
     "'kernel' must be positive (got 0)", true},
    {"sim/workload/ops/structural.cpp", MODEL LAYER("d", "dropout") "p = 1.0\n", ANALYZE, "'p' must be in [0, 1)", true},
    {"sim/workload/ops/structural.cpp", MODEL LAYER("f", "flatten") "start_dim = 1\n", ANALYZE,
     "'start_dim' is past the input's last dimension (input 4)", true},
    {"sim/workload/ops/normalization.cpp", CHW_MODEL LAYER("n", "local_response_norm") "size = 2\nalpha = -1.0\n", ANALYZE,
     "'alpha' must not be negative", true},
    {"sim/workload/ops/normalization.cpp", MODEL LAYER("n", "layernorm") "elementwise_affine = false\nbias = true\n", ANALYZE,
     "'bias' has no meaning without elementwise_affine", true},
    {"sim/workload/ops/embedding.cpp", MODEL LAYER("e", "embedding") "num_embeddings = 4\nembedding_dim = 2\npadding_idx = 4\n", ANALYZE,
     "'padding_idx' must be a row of the table, in [-num_embeddings, num_embeddings)", true},
    // the layer types ONNX import added (conv_transpose2d, instancenorm, resize)
#define IMAGE "name = \"m\"\n[input]\nshape = [3, 8, 8]\n[[layer]]\nname = \"l\"\n"
    {"sim/workload/ops/conv_transpose.cpp", IMAGE "op = \"conv_transpose2d\"\nout_channels = 4\nkernel = 3\noutput_padding = 1\n",
     "RIDGE analyze ./in.toml", "'output_padding' must be smaller than the stride or the dilation", false},
    {"sim/workload/ops/normalization.cpp", IMAGE "op = \"instancenorm\"\neps = 0\n", "RIDGE analyze ./in.toml",
     "'eps' must be positive", false},
    {"sim/workload/ops/normalization.cpp", IMAGE "op = \"groupnorm\"\nnum_groups = 3\neps = 0\n", "RIDGE analyze ./in.toml",
     "'eps' must be positive", false},
    {"sim/workload/ops/resize.cpp", IMAGE "op = \"resize\"\n", "RIDGE analyze ./in.toml", "'size' is required", false},
    {"sim/workload/ops/resize.cpp", IMAGE "op = \"resize\"\nsize = 16\nmode = \"lanczos\"\n", "RIDGE analyze ./in.toml",
     "'mode' must be \"nearest\", \"linear\" or \"cubic\"", false},
    {"sim/workload/ops/moe.cpp",
     "name = \"m\"\n[input]\nshape = [4, 8]\n[[layer]]\nname = \"r\"\nop = \"linear\"\nout_features = 4\n[[layer]]\nname = \"e\"\n"
     "op = \"moe\"\ninputs = [\"@input\", \"r\"]\nnum_experts = 4\ntop_k = 5\nintermediate_size = 16\n",
     "RIDGE analyze ./in.toml", "'top_k' must be at most num_experts = 4 (got 5)", false},
    {"sim/workload/ops/moe.cpp",
     "name = \"m\"\n[input]\nshape = [4, 8]\n[[layer]]\nname = \"r\"\nop = \"linear\"\nout_features = 4\n[[layer]]\nname = \"e\"\n"
     "op = \"moe\"\ninputs = [\"@input\", \"r\"]\nnum_experts = 4\ntop_k = 2\nintermediate_size = 16\nexpert_parallel = 3\n",
     "RIDGE analyze ./in.toml", "'expert_parallel' must divide num_experts = 4 (got 3)", true},
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
    {"sim/engine/measured_layers.cpp", CSV_HEADER "a,l,linear,fp32,1,1,4.9e-324\n", CALIBRATE, "column 'seconds' is too close to zero to compute with", true, "in.csv"},
    {"sim/engine/measured_layers.cpp", CSV_HEADER "a\x1b[2J,l,linear,fp32,1,1,1\n", CALIBRATE, "column 'model' must not contain control characters (got character 0x1b)", true, "in.csv"},
    {"sim/engine/measured_layers.cpp", CSV_HEADER ",l,linear,fp32,1,1,1\n", CALIBRATE, "column 'model' is empty", true, "in.csv"},
    {"sim/engine/measured_layers.cpp",
     "model,layer,op_class,dtype,flops,bytes,seconds,groups,stride,kernel_side,kernel_side_max\na,l,conv_kxk,fp32,1,1,1,1,1,5,3\n",
     CALIBRATE, "column 'kernel_side_max' (3) is below kernel_side (5)", true, "in.csv"},
    {"sim/engine/measured_layers.cpp", "model,layer,op_class,dtype,flops,input_bytes,output_bytes,weight_bytes,seconds,in_place\na,l,elementwise,fp32,1,4,4,0,1,yes\n",
     CALIBRATE, "column 'in_place' must be 0 or 1 (got 'yes')", true, "in.csv"},
    {"sim/engine/measured_layers.cpp", "model,layer,op_class,dtype,flops,bytes,seconds,in_place\na,l,elementwise,fp32,1,8,1,1\n",
     CALIBRATE, "column 'in_place' is 1, but the CSV gives one 'bytes' column, not the streams", true, "in.csv"},
    {"sim/engine/measured_layers.cpp", "model,layer,op_class,dtype,flops,input_bytes,output_bytes,weight_bytes,seconds,in_place\na,l,elementwise,fp32,1,4,8,0,1,1\n",
     CALIBRATE, "column 'in_place' is 1, but input_bytes (4) and output_bytes (8) differ", true, "in.csv"},
    {"sim/engine/measured_layers.cpp", "", "{ printf 'model,layer,op_class,dtype,flops,bytes,seconds\\na,'; printf 'l%.0s' $(seq 300); printf ',linear,fp32,1,1,1\\n'; } > in.csv && " CALIBRATE,
     "column 'layer' is 300 bytes long, longer than the 256 a name may be", true, "in.csv"},
    {"sim/engine/measured_layers.cpp", CSV_HEADER "a,l,lineer,fp32,1,1,1\n", CALIBRATE, "unknown op class 'lineer'", true, "in.csv"},
    {"sim/engine/measured_layers.cpp", CSV_HEADER "a,l,linear,fp13,1,1,1\n", CALIBRATE, "unknown dtype 'fp13'", true, "in.csv"},
    {"sim/engine/measured_layers.cpp", "model,layer,op_class,dtype,flops,bytes,seconds,batch\na,l,linear,fp32,1,1,1,1.5\n", CALIBRATE,
     "column 'batch' must be a whole number (got 1.5)", true, "in.csv"},
    {"sim/engine/measured_layers.cpp", "# only a comment\n", CALIBRATE, "no header line", false, "in.csv"},
    {"sim/engine/measured_layers.cpp", CSV_HEADER, CALIBRATE, "no measured rows after the header", true, "in.csv"},
    {"sim/engine/measured_layers.cpp", "", "RIDGE calibrate missing.csv --hw v100", "cannot read measured layers 'missing.csv'", false},
#define CSV_ROWS "a,l1,linear,fp32,1e9,1e6,0.001\na,l2,linear,fp32,2e9,1e6,0.002\na,l3,linear,fp32,3e9,1e6,0.003\n"
    {"sim/engine/measurement_conditions.cpp", "# conditions: Threads: 1\n" CSV_HEADER CSV_ROWS, CALIBRATE,
     "a condition must be 'key = value' with a lower-case key (got 'Threads: 1')", true, "in.csv"},
    {"sim/engine/measurement_conditions.cpp", "# conditions: threads = 1\n" CSV_HEADER CSV_ROWS "# conditions: threads = 2\n",
     CALIBRATE, "measurements taken under different conditions: threads = '2' here, '1' on an earlier line", true, "in.csv"},
    // sim/workload/onnx/ (protobuf text, written as the binary in.onnx)
    {"sim/workload/onnx/weights_in_place.cpp", "", "RIDGE import ./missing.onnx -o out.toml", "cannot read the ONNX file", false},
    {"sim/workload/onnx/reader.cpp", "", "printf 'not onnx' > in.onnx && " ONNX, "is not a readable ONNX model (truncated, or not ONNX)", false},
    {"sim/workload/onnx/reader.cpp", "ir_version: 8 graph { name: \"g\" }", ONNX, "is not an ONNX model: it holds no graph nodes", false, "in.onnx"},
    {"sim/workload/onnx/conv_attributes.cpp", ONNX_GRAPH("input: \"x\" output: \"y\" op_type: \"MaxPool\"", ""), ONNX, "node 'n' (MaxPool): has no 'kernel_shape' attribute", false, "in.onnx"},
    {"sim/workload/onnx/conv_attributes.cpp", ONNX_GRAPH("input: \"x\" output: \"y\" op_type: \"MaxPool\" attribute { name: \"kernel_shape\" type: INTS ints: 2 ints: 2 } "
                                                "attribute { name: \"strides\" type: INTS ints: 0 }", ""),
     ONNX, "node 'n' (MaxPool): 'strides' must be 2 values from 1 to 65536 (got [0]), one per spatial axis of the input", false, "in.onnx"},
    {"sim/workload/onnx/layout_ops.cpp", ONNX_GRAPH("input: \"x\" output: \"y\" op_type: \"Transpose\" attribute { name: \"perm\" type: INTS ints: 0 ints: 1 ints: 1 ints: 3 }", ""),
     ONNX, "node 'n' (Transpose): 'perm' [0x1x1x3] is not a permutation of the 4 axes", false, "in.onnx"},
    {"sim/workload/onnx/reader.cpp", ONNX_GRAPH("input: \"x\" op_type: \"Relu\"", ""), ONNX, "node 'n' (Relu): the node has no output", false, "in.onnx"},
    {"sim/workload/onnx/constant_folding.cpp",
     ONNX_GRAPH("input: \"a\" input: \"b\" input: \"c\" output: \"y\" op_type: \"Range\"",
                ONNX_INT("a", "int64_data: 0") ONNX_INT("b", "int64_data: 4") ONNX_INT("c", "int64_data: 0")),
     ONNX, "node 'n' (Range): start, limit and delta must be one integer each, delta not 0", false, "in.onnx"},
    {"sim/workload/onnx/indexing_ops.cpp",
     ONNX_GRAPH("input: \"d\" input: \"i\" output: \"y\" op_type: \"Gather\"",
                ONNX_INT("d", "dims: 2 int64_data: 2 int64_data: 3") ONNX_INT("i", "int64_data: 5")),
     ONNX, "node 'n' (Gather): index 5 is out of range for 2 values", false, "in.onnx"},
    {"sim/workload/onnx/indexing_ops.cpp",
     ONNX_GRAPH("input: \"x\" output: \"y\" op_type: \"Split\" attribute { name: \"axis\" type: INT i: 1 } "
                "attribute { name: \"split\" type: INTS ints: 1 ints: 2 }", ""),
     ONNX, "node 'n' (Split): 'split' gives 2 sizes for 1 outputs", false, "in.onnx"},
    {"sim/workload/onnx/indexing_ops.cpp",
     ONNX_GRAPH("input: \"t\" input: \"s\" output: \"a\" output: \"b\" op_type: \"Split\"",
                ONNX_FLOAT("t", "dims: 4 dims: 2") ONNX_INT("s", "dims: 2 int64_data: -1 int64_data: 5")),
     ONNX, "node 'n' (Split): 'split' sizes [-1, 5] must not be negative", false, "in.onnx"},
    {"sim/workload/onnx/indexing_ops.cpp",
     ONNX_GRAPH("input: \"t\" input: \"s\" output: \"a\" output: \"b\" op_type: \"Split\"",
                ONNX_FLOAT("t", "dims: 4 dims: 2") ONNX_INT("s", "dims: 2 int64_data: 1 int64_data: 2")),
     ONNX, "node 'n' (Split): 'split' sizes [1, 2] add up to 3, not the axis's 4", false, "in.onnx"},
    {"sim/workload/onnx/indexing_ops.cpp",
     ONNX_GRAPH("input: \"t\" output: \"a\" output: \"b\" op_type: \"Split\" attribute { name: \"axis\" type: INT i: 2 }",
                ONNX_FLOAT("t", "dims: 4 dims: 2")),
     ONNX, "node 'n' (Split): splits along axis 2, which a constant of shape [4x2] does not have", false, "in.onnx"},
    // sequences (sequence_ops.cpp) and the Loop that carries one (loop_ops.cpp)
    {"sim/workload/onnx/sequence_ops.cpp", ONNX_GRAPH("input: \"\" input: \"i\" output: \"y\" op_type: \"SequenceAt\"", ONNX_INT("i", "int64_data: 0")),
     ONNX, "node 'n' (SequenceAt): input 0 (a sequence) is missing", false, "in.onnx"},
    {"sim/workload/onnx/sequence_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"i\" output: \"y\" op_type: \"SequenceAt\"", ONNX_INT("i", "int64_data: 0")),
     ONNX, "node 'n' (SequenceAt): input 'x' is not a sequence made by an earlier node", false, "in.onnx"},
    {"sim/workload/onnx/sequence_ops.cpp",
     ONNX_NODES(ONNX_NODE("e", "output: \"s\" op_type: \"SequenceEmpty\"") ONNX_NODE("n", "input: \"s\" input: \"i\" output: \"y\" op_type: \"SequenceAt\""),
                ONNX_INT("i", "dims: 2 int64_data: 0 int64_data: 1")),
     ONNX, "node 'n' (SequenceAt): the position must be one value (got [0, 1])", false, "in.onnx"},
    {"sim/workload/onnx/sequence_ops.cpp",
     ONNX_NODES(ONNX_NODE("e", "output: \"s\" op_type: \"SequenceEmpty\"") ONNX_NODE("n", "input: \"s\" input: \"i\" output: \"y\" op_type: \"SequenceAt\""),
                ONNX_INT("i", "int64_data: 0")),
     ONNX, "node 'n' (SequenceAt): position 0 is outside a sequence of 0 items", false, "in.onnx"},
    {"sim/workload/onnx/loop_ops.cpp", ONNX_SEQUENCE_LOOP("5000", "q"),
     ONNX, "node 'n' (Loop): carries a sequence through 5000 trips; ridge unrolls such a loop, up to 4096 trips", false, "in.onnx"},
    {"sim/workload/onnx/loop_ops.cpp", ONNX_SEQUENCE_LOOP("1", "zz"),
     ONNX, "node 'n' (Loop): its loop-carried value 'zz' is made by no node", false, "in.onnx"},
    // GridSample (conv_ops.cpp) and two inputs stacked (initializers.cpp)
    {"sim/workload/onnx/conv_ops.cpp",
     ONNX_MODEL("opset_import { version: 17 }", ONNX_NODE("n", "input: \"x\" input: \"x\" output: \"y\" op_type: \"GridSample\"")
                "input { name: \"x\" type { tensor_type { elem_type: 1 shape { dim { dim_value: 1 } dim { dim_value: 3 } dim { dim_value: 8 } } } } }"),
     ONNX, "node 'n' (GridSample): samples a [1x3x8] input; ridge models GridSample over 2 spatial axes, [N, C, H, W]", false, "in.onnx"},
    {"sim/workload/onnx/conv_ops.cpp",
     ONNX_GRAPH("input: \"x\" input: \"x\" output: \"y\" op_type: \"GridSample\" attribute { name: \"mode\" type: STRING s: \"area\" }", ""),
     ONNX, "node 'n' (GridSample): mode 'area' is not one of bilinear / linear, nearest, bicubic / cubic", false, "in.onnx"},
    {"sim/workload/onnx/node_inputs.cpp",
     ONNX_GRAPH("input: \"c\" input: \"w\" output: \"y\" op_type: \"Conv\"",
                ONNX_FLOAT("c", "dims: 2 dims: 3 dims: 4 dims: 4") ONNX_FLOAT("w", "dims: 1 dims: 3 dims: 1 dims: 1")),
     ONNX, "node 'n' (Conv): input 'c' is a constant of shape [2x3x4x4] where ridge expects an activation with its batch first", false, "in.onnx"},
    {"sim/workload/onnx/initializers.cpp",
     ONNX_MODEL("opset_import { version: 13 }", ONNX_NODE("n", "input: \"a\" input: \"m\" output: \"y\" op_type: \"Sub\"")
                "input { name: \"a\" type { tensor_type { elem_type: 1 shape { dim { dim_value: 3 } dim { dim_value: 8 } } } } } "
                "input { name: \"b\" type { tensor_type { elem_type: 1 shape { dim { dim_value: 3 } dim { dim_value: 8 } } } } } "
                ONNX_FLOAT("m", "dims: 3 dims: 1")),
     ONNX, "the graph has 2 inputs of one shape, but 'a' has no batch axis first, which ridge needs to stack them", false, "in.onnx"},
    {"sim/workload/onnx/reader.cpp",
     ONNX_GRAPH("input: \"x\" output: \"y\" op_type: \"Relu\"",
                "initializer { name: \"w\" dims: 1099511627776 dims: 1099511627776 data_type: 1 }"),
     ONNX, "a tensor's element count overflows 64 bits", false, "in.onnx"},
    // the graph as a whole: opsets, inputs, nodes
    {"sim/workload/onnx/reader.cpp", ONNX_GRAPH("input: \"x\" output: \"y\" op_type: \"Identity\"", ""), ONNX, "the graph has no node ridge can model", false, "in.onnx"},
    {"sim/workload/onnx/reader.cpp", ONNX_GRAPH(ONNX_OP("Relu"), ""), ONNX, "node 'n' (Relu): has 0 inputs, ONNX requires 1", false, "in.onnx"},
    {"sim/workload/onnx/reader.cpp", ONNX_MODEL("opset_import { version: 3 }", ONNX_NODE("n", "input: \"x\" " ONNX_OP("Relu")) ONNX_X), ONNX,
     "opset 3 is not supported (ridge reads opsets 7 to 21)", false, "in.onnx"},
    {"sim/workload/onnx/reader.cpp", ONNX_MODEL("opset_import { domain: \"com.x\" version: 1 }", ONNX_NODE("n", "input: \"x\" " ONNX_OP("Relu")) ONNX_X), ONNX,
     "the model imports no default-domain opset", false, "in.onnx"},
    {"sim/workload/onnx/initializers.cpp", ONNX_GRAPH("input: \"x\" " ONNX_OP("Relu"), "input { name: \"z\" }"), ONNX, "the graph has more than one input ('x', 'z')", false, "in.onnx"},
    {"sim/workload/onnx/initializers.cpp", ONNX_MODEL("opset_import { version: 13 }", ONNX_NODE("n", "input: \"x\" " ONNX_OP("Relu"))), ONNX, "the graph has no input", false, "in.onnx"},
    {"sim/workload/onnx/initializers.cpp", ONNX_RELU, ONNX " --input z=1x3x8x8", "--input names 'z', but the graph's input is 'x'", false, "in.onnx"},
    {"sim/workload/onnx/initializers.cpp", ONNX_MODEL("opset_import { version: 13 }", ONNX_NODE("n", "input: \"x\" " ONNX_OP("Relu")) "input { name: \"x\" type { tensor_type { "
                    "elem_type: 1 shape { dim { dim_value: 1 } dim { dim_param: \"C\" } } } } }"), ONNX,
     "input 'x': dimension 1 ('C') is symbolic and has no value", false, "in.onnx"},
    {"sim/workload/onnx/initializers.cpp", ONNX_MODEL("opset_import { version: 13 }", ONNX_NODE("n", "input: \"x\" " ONNX_OP("Relu")) "input { name: \"x\" type { tensor_type { "
                    "elem_type: 1 shape { dim { dim_value: 1 } dim { dim_param: \"C\" } } } } }"), ONNX " --set model.C=0",
     "--set model.C=0: a dimension's size must be a positive integer", false, "in.onnx"},
    {"sim/workload/onnx/value_folding.cpp", ONNX_GRAPH("input: \"c\" " ONNX_OP("ReduceMin") ONNX_INTS("axes", "ints: 5"), ONNX_INT("c", "dims: 2 int64_data: 1 int64_data: 2")), ONNX,
     "node 'n' (ReduceMin): reduces along axis 5, which a constant of shape [2] does not have", false, "in.onnx"},
    {"sim/workload/ops/detection.cpp", "name = \"m\"\n[input]\nshape = [4, 8]\n[[layer]]\nname = \"t\"\nop = \"topk\"\nk = 9\n",
     "RIDGE analyze ./in.toml", "must be at most the axis' size 8 (got 9)", true},
    {"sim/workload/ops/detection.cpp", "name = \"m\"\n[input]\nshape = [4, 8]\n[[layer]]\nname = \"t\"\nop = \"topk\"\nk = 2\naxis = 5\n",
     "RIDGE analyze ./in.toml", "must be in [-2, 2) for the input 4x8 (got 5)", true},
    {"sim/workload/onnx/initializers.cpp", ONNX_MODEL("opset_import { version: 13 }", ONNX_NODE("n", "input: \"x\" " ONNX_OP("Relu")) "input { name: \"x\" type { tensor_type { "
                    "elem_type: 1 shape { dim { dim_value: 1 } } } } }"), ONNX,
     "input 'x' has no dimension besides the batch", false, "in.onnx"},
    // a node's inputs
    {"sim/workload/onnx/node_inputs.cpp", ONNX_GRAPH("input: \"\" " ONNX_OP("BatchNormalization"), ""), ONNX, "node 'n' (BatchNormalization): input 0 is missing", false, "in.onnx"},
    {"sim/workload/onnx/node_inputs.cpp", ONNX_GRAPH("input: \"q\" " ONNX_OP("BatchNormalization"), ""), ONNX, "input 'q' is made by no earlier node", false, "in.onnx"},
    {"sim/workload/onnx/node_inputs.cpp", ONNX_GRAPH("input: \"w\" " ONNX_OP("BatchNormalization"), ONNX_FLOAT("w", "dims: 3")), ONNX,
     "input 'w' is a constant where ridge expects an activation", false, "in.onnx"},
    {"sim/workload/onnx/node_inputs.cpp", ONNX_GRAPH("input: \"x\" input: \"x\" " ONNX_OP("Conv"), ""), ONNX,
     "node 'n' (Conv): input 'x' must be a constant (an initializer or a folded value)", false, "in.onnx"},
    {"sim/workload/onnx/node_inputs.cpp", ONNX_GRAPH("input: \"x\" input: \"s\" " ONNX_OP("Reshape"), ONNX_FLOAT("s", "dims: 2 float_data: 1 float_data: 192")), ONNX,
     "input 's' must be a constant integer tensor", false, "in.onnx"},
    // the batch axis
    {"sim/workload/onnx/batch_axis.cpp", ONNX_NODES(ONNX_T ONNX_NODE("n", "input: \"t\" input: \"s\" " ONNX_OP("Reshape")), ONNX_INT("s", "dims: 2 int64_data: 2 int64_data: 96")),
     ONNX, "node 'n' (Reshape): loses track of the batch axis (shape [2x96] at batch 1)", false, "in.onnx"},
    {"sim/workload/onnx/batch_axis.cpp", ONNX_GRAPH("input: \"x\" " ONNX_OP("Softmax") ONNX_ATTR_INT("axis", "0"), ""), ONNX,
     "node 'n' (Softmax): works along the batch axis (axis 0)", false, "in.onnx"},
    {"sim/workload/onnx/batch_axis.cpp", ONNX_NODES(ONNX_T ONNX_NODE("n", "input: \"t\" " ONNX_OP("BatchNormalization")), ""), ONNX,
     "node 'n' (BatchNormalization): needs its input's batch first (it is on axis 1)", false, "in.onnx"},
    {"sim/workload/onnx/indexing_ops.cpp", ONNX_NODES(ONNX_T ONNX_NODE("n", "input: \"x\" input: \"t\" " ONNX_OP("Concat") ONNX_ATTR_INT("axis", "2")), ""), ONNX,
     "node 'n' (Concat): joins activations whose batch lies on different axes", false, "in.onnx"},
    {"sim/workload/onnx/layers.cpp", ONNX_GRAPH("input: \"x\" input: \"c\" " ONNX_OP("Add"), ONNX_FLOAT("c", "dims: 2 dims: 3 dims: 8 dims: 8")), ONNX,
     "node 'n' (Add): a constant of shape [2x3x8x8] varies along the batch axis", false, "in.onnx"},
    // errors of the layer a node becomes
    {"sim/workload/onnx/layers.cpp", ONNX_NODES(ONNX_F ONNX_NODE("n", "input: \"x\" input: \"f\" " ONNX_OP("Add")), ""), ONNX,
     "(input shapes per sample: 3x8x8, 192)", false, "in.onnx"},
    {"sim/workload/onnx/layers.cpp", ONNX_GRAPH("input: \"x\" input: \"w\" " ONNX_OP("Conv") ONNX_ATTR_INT("group", "0"), ONNX_FLOAT("w", "dims: 4 dims: 3 dims: 3 dims: 3")),
     ONNX, "node 'n' (Conv): layer 'n' (conv2d): 'groups' must be positive (got 0)", false, "in.onnx"},
    // constants folded
    {"sim/workload/onnx/constant_folding.cpp", ONNX_GRAPH("input: \"a\" input: \"b\" " ONNX_OP("Add"), ONNX_INT("a", "dims: 2") ONNX_INT("b", "dims: 3")), ONNX,
     "node 'n' (Add): constant shapes [2] and [3] do not broadcast", false, "in.onnx"},
    {"sim/workload/onnx/constant_folding.cpp", ONNX_GRAPH("input: \"a\" input: \"b\" " ONNX_OP("Equal"), ONNX_INT("a", "dims: 2") ONNX_INT("b", "dims: 3")), ONNX,
     "node 'n' (Equal): constant shapes [2] and [3] do not broadcast", false, "in.onnx"},
    {"sim/workload/onnx/constant_folding.cpp", ONNX_GRAPH("input: \"a\" input: \"b\" " ONNX_OP("Max"), ONNX_INT("a", "dims: 2") ONNX_INT("b", "dims: 3")), ONNX,
     "node 'n' (Max): constant shapes [2] and [3] do not broadcast", false, "in.onnx"},
    {"sim/workload/onnx/elementwise_ops.cpp", ONNX_GRAPH("input: \"a\" input: \"b\" input: \"b\" " ONNX_OP("Where"), ONNX_INT("a", "dims: 2") ONNX_INT("b", "dims: 3")), ONNX,
     "node 'n' (Where): constant shapes [2], [3] and [3] do not broadcast", false, "in.onnx"},
    {"sim/workload/onnx/initializers.cpp", ONNX_GRAPH(ONNX_OP("Constant"), ""), ONNX, "node 'n' (Constant): a Constant ridge cannot read", false, "in.onnx"},
    {"sim/workload/onnx/constant_folding.cpp", ONNX_GRAPH("input: \"a\" input: \"b\" input: \"c\" " ONNX_OP("Range"),
                    ONNX_INT("a", "int64_data: 0") ONNX_INT("b", "int64_data: 100000") ONNX_INT("c", "int64_data: 1")),
     ONNX, "node 'n' (Range): folds to more than 65536 values", false, "in.onnx"},
    {"sim/workload/onnx/indexing_ops.cpp", ONNX_GRAPH("input: \"c\" input: \"s\" input: \"e\" input: \"a\" " ONNX_OP("Slice"),
                    ONNX_INT("c", "dims: 4") ONNX_INT("s", "int64_data: 0") ONNX_INT("e", "int64_data: 1") ONNX_INT("a", "int64_data: 5")),
     ONNX, "node 'n' (Slice): slices a constant along no axis it has", false, "in.onnx"},
    {"sim/workload/onnx/indexing_ops.cpp", ONNX_GRAPH("input: \"d\" input: \"i\" " ONNX_OP("Gather") ONNX_ATTR_INT("axis", "3"), ONNX_INT("d", "dims: 2") ONNX_INT("i", "int64_data: 0")),
     ONNX, "node 'n' (Gather): gathers along no axis the data has", false, "in.onnx"},
    {"sim/workload/onnx/indexing_ops.cpp", ONNX_GRAPH("input: \"c\" input: \"s\" " ONNX_OP("Expand"), ONNX_INT("c", "dims: 3") ONNX_INT("s", "int64_data: 2")), ONNX,
     "node 'n' (Expand): cannot expand [3] to [2]", false, "in.onnx"},
    // convolutions, pools and pads
    {"sim/workload/onnx/conv_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"w\" " ONNX_OP("Conv"), ONNX_FLOAT("w", "dims: 4 dims: 3 dims: 3")), ONNX,
     "node 'n' (Conv): the weight [4x3x3] does not fit the input [N, 3x8x8]", false, "in.onnx"},
    {"sim/workload/onnx/conv_attributes.cpp", ONNX_GRAPH("input: \"x\" input: \"w\" " ONNX_OP("Conv") ONNX_ATTR_STRING("auto_pad", "SAME_UPPER"),
                    ONNX_FLOAT("w", "dims: 4 dims: 3 dims: 2 dims: 2")),
     ONNX, "node 'n' (Conv): auto_pad SAME_UPPER pads unevenly", false, "in.onnx"},
    {"sim/workload/onnx/conv_ops.cpp", ONNX_NODES(ONNX_F ONNX_NODE("n", "input: \"f\" " ONNX_OP("MaxPool") ONNX_INTS("kernel_shape", "ints: 2 ints: 2")), ""), ONNX,
     "node 'n' (MaxPool): ridge models pools over 1, 2 or 3 spatial axes (the input is [N, 192])", false, "in.onnx"},
    {"sim/workload/onnx/conv_attributes.cpp", ONNX_GRAPH("input: \"x\" " ONNX_OP("MaxPool") ONNX_INTS("kernel_shape", "ints: 2 ints: 2") ONNX_INTS("pads", "ints: 1 ints: 1"), ""), ONNX,
     "node 'n' (MaxPool): 'pads' must be 4 values", false, "in.onnx"},
    {"sim/workload/onnx/conv_attributes.cpp", ONNX_GRAPH("input: \"x\" " ONNX_OP("MaxPool") ONNX_INTS("kernel_shape", "ints: 2 ints: 2") ONNX_INTS("pads", "ints: 0 ints: 0 ints: 1 ints: 1"), ""),
     ONNX, "node 'n' (MaxPool): asymmetric pads [0, 0, 1, 1] are not modelled", false, "in.onnx"},
    {"sim/workload/onnx/conv_ops.cpp", ONNX_GRAPH("input: \"x\" " ONNX_OP("Pad") ONNX_INTS("pads", "ints: 0 ints: 0 ints: 1 ints: 1 ints: 0 ints: 0 ints: 1 ints: 1")
                    ONNX_ATTR_STRING("mode", "reflect"), ""),
     ONNX, "node 'n' (Pad): only a Pad of zeros is modelled (this one is reflect)", false, "in.onnx"},
    {"sim/workload/onnx/conv_ops.cpp", ONNX_GRAPH("input: \"x\" " ONNX_OP("Pad") ONNX_INTS("pads", "ints: 0 ints: 0 ints: 1 ints: 1 ints: 0 ints: 0 ints: 1 ints: 0"), ""), ONNX,
     "node 'n' (Pad): pads [0, 0, 1, 1, 0, 0, 1, 0] are not the same on both sides of the spatial axes", false, "in.onnx"},
    {"sim/workload/onnx/conv_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"w\" " ONNX_OP("ConvTranspose"), ONNX_FLOAT("w", "dims: 3 dims: 3 dims: 3")), ONNX,
     "node 'n' (ConvTranspose): the weight [3x3x3] does not fit the input [N, 3x8x8]", false, "in.onnx"},
    {"sim/workload/onnx/conv_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"w\" " ONNX_OP("ConvTranspose") ONNX_INTS("output_shape", "ints: 16 ints: 16"),
                    ONNX_FLOAT("w", "dims: 3 dims: 3 dims: 3 dims: 3")),
     ONNX, "node 'n' (ConvTranspose): output_shape is not modelled", false, "in.onnx"},
    {"sim/workload/onnx/conv_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"w\" " ONNX_OP("ConvTranspose") ONNX_ATTR_STRING("auto_pad", "SAME_UPPER"),
                    ONNX_FLOAT("w", "dims: 3 dims: 3 dims: 3 dims: 3")),
     ONNX, "node 'n' (ConvTranspose): auto_pad SAME_UPPER is not modelled", false, "in.onnx"},
    {"sim/workload/onnx/conv_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"w\" " ONNX_OP("ConvTranspose") ONNX_INTS("pads", "ints: 0 ints: 0 ints: 1 ints: 1"),
                    ONNX_FLOAT("w", "dims: 3 dims: 3 dims: 3 dims: 3")),
     ONNX, "node 'n' (ConvTranspose): pads [0, 0, 1, 1] are not the same on both sides", false, "in.onnx"},
    // Resize, Einsum, Where
    {"sim/workload/onnx/conv_ops.cpp", ONNX_GRAPH("input: \"x\" " ONNX_OP("Resize"), ""), ONNX, "node 'n' (Resize): needs constant scales or sizes", false, "in.onnx"},
    {"sim/workload/onnx/conv_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"\" input: \"s\" " ONNX_OP("Resize"),
                    ONNX_FLOAT("s", "dims: 4 float_data: 1 float_data: 1 float_data: 1e30 float_data: 2")),
     ONNX, "node 'n' (Resize): scale 1e+30 of axis 2 gives no size from 1 to 2^40", false, "in.onnx"},
    {"sim/workload/onnx/conv_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"\" input: \"\" input: \"s\" " ONNX_OP("Resize"),
                    ONNX_INT("s", "dims: 4 int64_data: 1 int64_data: 6 int64_data: 16 int64_data: 16")),
     ONNX, "node 'n' (Resize): resizes more than the spatial axes (to [1x6x16x16])", false, "in.onnx"},
    {"sim/workload/onnx/conv_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"\" input: \"\" input: \"s\" " ONNX_OP("Resize") ONNX_ATTR_STRING("mode", "area"),
                    ONNX_INT("s", "dims: 4 int64_data: 1 int64_data: 3 int64_data: 16 int64_data: 16")),
     ONNX, "node 'n' (Resize): mode area is not modelled (nearest, linear and cubic are)", false, "in.onnx"},
#define EINSUM(INPUTS, EQUATION) "input: \"" INPUTS "\" " ONNX_OP("Einsum") ONNX_ATTR_STRING("equation", EQUATION)
#define EINSUM_XX(EQUATION) ONNX_GRAPH("input: \"x\" " EINSUM("x", EQUATION), "")
    {"sim/workload/onnx/matmul_ops.cpp", EINSUM_XX("...ij,jk->...ik"), ONNX,
     "node 'n' (Einsum): equation '...ij,jk->...ik' has '...' (broadcast axes), which ridge does not model", false, "in.onnx"},
    {"sim/workload/onnx/matmul_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"x\" " EINSUM("x", "a,b,c->abc"), ""), ONNX,
     "node 'n' (Einsum): has 3 operands", false, "in.onnx"},
    {"sim/workload/onnx/matmul_ops.cpp", ONNX_GRAPH("input: \"c\" " EINSUM("c", "ij,jk->ik"), ONNX_FLOAT("c", "dims: 2 dims: 2")), ONNX,
     "node 'n' (Einsum): both operands are constants", false, "in.onnx"},
    {"sim/workload/onnx/matmul_ops.cpp", EINSUM_XX("ij,jk->ik"), ONNX,
     "node 'n' (Einsum): operand 'ij' names 2 axes, but its shape is [1x3x8x8]", false, "in.onnx"},
    {"sim/workload/onnx/matmul_ops.cpp",
     ONNX_NODES(ONNX_NODE("r", "input: \"x\" input: \"s\" output: \"r\" op_type: \"Reshape\"") ONNX_NODE("n", "input: \"r\" " EINSUM("r", "ij,ij->ij")),
                ONNX_INT("s", "dims: 2 int64_data: 3 int64_data: 64")),
     ONNX, "node 'n' (Einsum): an operand's batch is merged into its axis 0, which ridge's Einsum does not follow", false, "in.onnx"},
    {"sim/workload/onnx/matmul_ops.cpp", ONNX_NODES(ONNX_T ONNX_NODE("n", "input: \"x\" " EINSUM("t", "abhw,abhw->abhw")), ""), ONNX,
     "node 'n' (Einsum): the operands' batch axes are different letters ('a' and 'b')", false, "in.onnx"},
    {"sim/workload/onnx/matmul_ops.cpp", EINSUM_XX("bchw,bchw->hw"), ONNX,
     "node 'n' (Einsum): equation 'bchw,bchw->hw' sums over the batch axis ('b')", false, "in.onnx"},
    {"sim/workload/ops/einsum.cpp", MODEL LAYER("e", "einsum") "inputs = [\"@input\", \"@input\"]\nequation = \"i,i\"\n", ANALYZE,
     "'equation' 'i,i' has no '->' (ridge reads an explicit output)", true},
    {"sim/workload/onnx/elementwise_ops.cpp", ONNX_GRAPH("input: \"c\" input: \"x\" input: \"x\" " ONNX_OP("Where"), ONNX_INT("c", "dims: 2 dims: 3 dims: 8 dims: 8")), ONNX,
     "node 'n' (Where): a constant operand widens the activation's shape", false, "in.onnx"},
    // Reshape and Flatten
    {"sim/workload/onnx/layout_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"s\" " ONNX_OP("Reshape"), ONNX_INT("s", "dims: 5 int64_data: 0 int64_data: 0 int64_data: 0 int64_data: 0 int64_data: 0")),
     ONNX, "node 'n' (Reshape): target [0x0x0x0x0] copies a dimension the input lacks", false, "in.onnx"},
    {"sim/workload/onnx/layout_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"s\" " ONNX_OP("Reshape"), ONNX_INT("s", "dims: 2 int64_data: -1 int64_data: 5")), ONNX,
     "node 'n' (Reshape): cannot reshape [1x3x8x8] into [-1x5]", false, "in.onnx"},
    {"sim/workload/onnx/layout_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"s\" " ONNX_OP("Reshape"), ONNX_INT("s", "dims: 2 int64_data: 1 int64_data: 5")), ONNX,
     "node 'n' (Reshape): cannot reshape [1x3x8x8] into [1x5] (at batch 1)", false, "in.onnx"},
    {"sim/workload/onnx/layout_ops.cpp", ONNX_GRAPH("input: \"x\" " ONNX_OP("Flatten") ONNX_ATTR_INT("axis", "9"), ""), ONNX, "node 'n' (Flatten): axis 9 is out of range", false, "in.onnx"},
    {"sim/workload/onnx/layout_ops.cpp", ONNX_GRAPH("input: \"x\" " ONNX_OP("Unsqueeze") ONNX_INTS("axes", "ints: -100"), ""), ONNX,
     "node 'n' (Unsqueeze): axis -100 is out of range for its output of rank 5", false, "in.onnx"},
    // the other ops' attributes and operands
    {"sim/workload/onnx/matmul_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"w\" " ONNX_OP("Gemm") ONNX_ATTR_INT("transA", "1"), ONNX_FLOAT("w", "dims: 8 dims: 4")), ONNX,
     "node 'n' (Gemm): transA = 1 is not modelled", false, "in.onnx"},
    {"sim/workload/onnx/matmul_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"w\" " ONNX_OP("Gemm"), ONNX_FLOAT("w", "dims: 3 dims: 8 dims: 4")), ONNX,
     "node 'n' (Gemm): the weight must be 2-D", false, "in.onnx"},
    {"sim/workload/onnx/matmul_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"w\" " ONNX_OP("MatMul"), ONNX_FLOAT("w", "dims: 8")), ONNX,
     "node 'n' (MatMul): a MatMul by a constant of rank 1 is not modelled", false, "in.onnx"},
    {"sim/workload/onnx/normalization_ops.cpp", ONNX_GRAPH("input: \"x\" " ONNX_OP("LayerNormalization") ONNX_ATTR_INT("axis", "1"), ""), ONNX,
     "node 'n' (LayerNormalization): normalises over more than the last axis", false, "in.onnx"},
    {"sim/workload/onnx/elementwise_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"lo\" " ONNX_OP("Clip"), ONNX_FLOAT("lo", "dims: 2")),
     ONNX, "node 'n' (Clip): bound lo must be a one-element constant", false, "in.onnx"},
    {"sim/workload/onnx/elementwise_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"e\" " ONNX_OP("Pow"), ONNX_FLOAT("e", "dims: 2 float_data: 2 float_data: 3")), ONNX,
     "node 'n' (Pow): the exponent must be a one-element constant", false, "in.onnx"},
    {"sim/workload/onnx/normalization_ops.cpp", ONNX_GRAPH("input: \"x\" " ONNX_OP("ReduceMean"), ""), ONNX, "node 'n' (ReduceMean): reduces over every axis, the batch included", false, "in.onnx"},
    {"sim/workload/onnx/normalization_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"s\" input: \"s\" " ONNX_OP("GroupNormalization") ONNX_ATTR_INT("num_groups", "1"), ONNX_FLOAT("s", "dims: 2")), ONNX,
     "node 'n' (GroupNormalization): scale [2] and bias [2] must both hold one value per group (1) or per channel (3)", false, "in.onnx"},
    {"sim/workload/onnx/conv_ops.cpp", ONNX_GRAPH("input: \"x\" " ONNX_OP("AveragePool") ONNX_INTS("kernel_shape", "ints: 2 ints: 2") ONNX_INTS("dilations", "ints: 2 ints: 2"), ""), ONNX,
     "node 'n' (AveragePool): a dilated AveragePool (opset 19) is not modelled", false, "in.onnx"},
    // Tile, Trilu, CumSum
#define ONNX_REPS(VALUES) ONNX_GRAPH("input: \"x\" input: \"r\" " ONNX_OP("Tile"), ONNX_INT("r", VALUES))
    {"sim/workload/onnx/rearrange_ops.cpp", ONNX_REPS("dims: 2 int64_data: 1 int64_data: 1"), ONNX,
     "node 'n' (Tile): repeats [1, 1] do not give one count per axis of the input [1x3x8x8]", false, "in.onnx"},
    {"sim/workload/onnx/rearrange_ops.cpp",
     ONNX_NODES(ONNX_NODE("m", "input: \"x\" input: \"s\" output: \"m\" op_type: \"Reshape\"") ONNX_NODE("n", "input: \"m\" input: \"r\" " ONNX_OP("Tile")),
                ONNX_INT("s", "dims: 2 int64_data: 3 int64_data: 64") ONNX_INT("r", "dims: 2 int64_data: 1 int64_data: 1")),
     ONNX, "node 'n' (Tile): tiles an input whose batch is merged into another axis", false, "in.onnx"},
    {"sim/workload/onnx/rearrange_ops.cpp", ONNX_REPS("dims: 4 int64_data: 1 int64_data: 1 int64_data: 0 int64_data: 1"), ONNX,
     "node 'n' (Tile): repeats [1, 1, 0, 1] must be positive", false, "in.onnx"},
    {"sim/workload/onnx/rearrange_ops.cpp", ONNX_REPS("dims: 4 int64_data: 2 int64_data: 1 int64_data: 1 int64_data: 1"), ONNX,
     "node 'n' (Tile): repeats the batch axis, which ridge does not model", false, "in.onnx"},
    {"sim/workload/onnx/rearrange_ops.cpp", ONNX_NODES(ONNX_F ONNX_NODE("n", "input: \"f\" " ONNX_OP("Trilu")), ""), ONNX,
     "node 'n' (Trilu): needs a matrix per sample (the input is [1x192])", false, "in.onnx"},
    {"sim/workload/onnx/rearrange_ops.cpp",
     ONNX_NODES(ONNX_NODE("t", "input: \"x\" output: \"t\" op_type: \"Transpose\" " ONNX_INTS("perm", "ints: 2 ints: 3 ints: 0 ints: 1"))
                ONNX_NODE("n", "input: \"t\" " ONNX_OP("Trilu")), ""),
     ONNX, "node 'n' (Trilu): works on a matrix holding the batch axis", false, "in.onnx"},
    {"sim/workload/onnx/rearrange_ops.cpp", ONNX_GRAPH("input: \"c\" " ONNX_OP("Trilu"), ONNX_INT("c", "dims: 2 int64_data: 1 int64_data: 1")), ONNX,
     "node 'n' (Trilu): needs a matrix (the input is [2])", false, "in.onnx"},
    {"sim/workload/onnx/rearrange_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"k\" " ONNX_OP("Trilu"), ONNX_INT("k", "dims: 2 int64_data: 0 int64_data: 1")), ONNX,
     "node 'n' (Trilu): the diagonal k must be one value (got [0, 1])", false, "in.onnx"},
    {"sim/workload/onnx/rearrange_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"a\" " ONNX_OP("CumSum"), ONNX_INT("a", "dims: 2 int64_data: 1 int64_data: 2")), ONNX,
     "node 'n' (CumSum): the axis must be one value (got [1, 2])", false, "in.onnx"},
    // LSTM, GRU, RNN: r is x as [T = 3, N = 1, I = 64] (reshaped to [1, 3, 64] and
    // transposed); W and R fit a hidden size of 2.
#define ONNX_SEQ(NODE, EXTRA)                                                                                    \
  ONNX_NODES(ONNX_NODE("s", "input: \"x\" input: \"rs\" output: \"s\" op_type: \"Reshape\"")                      \
                 ONNX_NODE("r", "input: \"s\" output: \"r\" op_type: \"Transpose\" " ONNX_INTS("perm", "ints: 1 ints: 0 ints: 2")) \
                     ONNX_NODE("n", NODE),                                                                       \
             ONNX_INT("rs", "dims: 3 int64_data: 1 int64_data: 3 int64_data: 64") EXTRA)
#define ONNX_WR(W) ONNX_FLOAT("W", "dims: 1 dims: 8 dims: " W) ONNX_FLOAT("R", "dims: 1 dims: 8 dims: 2")
#define ONNX_LSTM(FIELDS) "input: \"r\" input: \"W\" input: \"R\" " ONNX_OP("LSTM") FIELDS
    {"sim/workload/onnx/recurrent_ops.cpp", ONNX_SEQ(ONNX_LSTM(ONNX_ATTR_INT("layout", "2")), ONNX_WR("64")), ONNX,
     "node 'n' (LSTM): layout must be 0 or 1 (got 2)", false, "in.onnx"},
    {"sim/workload/onnx/recurrent_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"W\" input: \"R\" " ONNX_OP("LSTM"), ONNX_WR("64")), ONNX,
     "node 'n' (LSTM): X must be [T, N, I] (got [1x1x8x8])", false, "in.onnx"},
    {"sim/workload/onnx/recurrent_ops.cpp",
     ONNX_SEQ("input: \"r\" input: \"W\" input: \"R\" input: \"\" input: \"\" input: \"\" input: \"\" input: \"W\" " ONNX_OP("LSTM"), ONNX_WR("64")),
     ONNX, "node 'n' (LSTM): peephole weights (input P) are not modelled", false, "in.onnx"},
    {"sim/workload/onnx/recurrent_ops.cpp", ONNX_SEQ(ONNX_LSTM(ONNX_ATTR_STRING("direction", "sideways")), ONNX_WR("64")), ONNX,
     "node 'n' (LSTM): direction 'sideways' is not forward, reverse or bidirectional", false, "in.onnx"},
    {"sim/workload/onnx/recurrent_ops.cpp", ONNX_SEQ(ONNX_LSTM(""), ONNX_WR("63")), ONNX,
     "node 'n' (LSTM): W [1x8x63] and R [1x8x2] must be [1, 4 x hidden_size, 64] and [1, 4 x hidden_size, hidden_size]", false, "in.onnx"},
    {"sim/workload/onnx/recurrent_ops.cpp",
     ONNX_SEQ("input: \"r\" input: \"W\" input: \"R\" input: \"B\" " ONNX_OP("LSTM"), ONNX_WR("64") ONNX_FLOAT("B", "dims: 1 dims: 8")), ONNX,
     "node 'n' (LSTM): B [1x8] must be [1, 8 x hidden_size]", false, "in.onnx"},
    {"sim/workload/onnx/recurrent_ops.cpp",
     ONNX_SEQ("input: \"r\" input: \"W\" input: \"R\" " ONNX_OP("RNN") "attribute { name: \"activations\" type: STRINGS strings: \"Sigmoid\" } ",
              ONNX_FLOAT("W", "dims: 1 dims: 2 dims: 64") ONNX_FLOAT("R", "dims: 1 dims: 2 dims: 2")),
     ONNX, "node 'n' (RNN): activation 'Sigmoid' is not modelled (Tanh or Relu)", false, "in.onnx"},
    {"sim/workload/onnx/recurrent_ops.cpp",
     ONNX_SEQ(ONNX_LSTM("attribute { name: \"activations\" type: STRINGS strings: \"Relu\" strings: \"Tanh\" strings: \"Tanh\" } "), ONNX_WR("64")),
     ONNX, "node 'n' (LSTM): activations other than the default Sigmoid and Tanh are not modelled", false, "in.onnx"},
    {"sim/workload/onnx/indexing_ops.cpp", ONNX_GRAPH("input: \"w\" input: \"x\" " ONNX_OP("Gather"), ONNX_FLOAT("w", "dims: 2 dims: 3 dims: 4")), ONNX,
     "node 'n' (Gather): a lookup table must be 2-D", false, "in.onnx"},
    {"sim/workload/onnx/detection_ops.cpp", ONNX_GRAPH("input: \"x\" " ONNX_OP("If"), ""), ONNX,
     "node 'n' (If): its condition depends on the data, and ridge counts one branch only where it can fold the condition", false, "in.onnx"},
    {"sim/workload/onnx/detection_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"x\" " ONNX_OP("NonMaxSuppression"), ""), ONNX,
     "node 'n' (NonMaxSuppression): max_output_boxes_per_class is 0 or not a constant, so it keeps no box ridge can count", false, "in.onnx"},
    {"sim/workload/onnx/detection_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"k\" " ONNX_OP("TopK"), ONNX_INT("k", "dims: 1 int64_data: 0")), ONNX,
     "node 'n' (TopK): k must be a positive constant ridge can fold", false, "in.onnx"},
    {"sim/workload/onnx/indexing_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"s\" " ONNX_OP("Expand"), ONNX_INT("s", "dims: 4 int64_data: 2 int64_data: 3 int64_data: 8 int64_data: 8")),
     ONNX, "node 'n' (Expand): expands the batch axis, which ridge does not model", false, "in.onnx"},
    {"sim/workload/onnx/indexing_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"s\" " ONNX_OP("Expand"), ONNX_INT("s", "dims: 5 int64_data: 2 int64_data: 1 int64_data: 3 int64_data: 8 int64_data: 8")),
     ONNX, "which ridge models only as a broadcast of axes of size 1 at the input's rank", false, "in.onnx"},
#define ONNX_CONST_TILE(REPS) ONNX_GRAPH("input: \"c\" input: \"r\" " ONNX_OP("Tile"), ONNX_INT("c", "dims: 2 int64_data: 1 int64_data: 4") ONNX_INT("r", REPS))
    {"sim/workload/onnx/rearrange_ops.cpp", ONNX_CONST_TILE("dims: 2 int64_data: 1 int64_data: 1"), ONNX,
     "node 'n' (Tile): repeats [1, 1] do not give one count per axis of the input [2]", false, "in.onnx"},
    {"sim/workload/onnx/rearrange_ops.cpp", ONNX_CONST_TILE("dims: 1 int64_data: -1"), ONNX,
     "node 'n' (Tile): repeats [-1] must not be negative", false, "in.onnx"},
#define ONNX_TWO_INTS(NAME) ONNX_INT(NAME, "dims: 2 int64_data: 0 int64_data: 1")
    {"sim/workload/onnx/detection_ops.cpp", ONNX_GRAPH("input: \"c\" input: \"c\" " ONNX_OP("GatherElements"), ONNX_TWO_INTS("c")), ONNX,
     "node 'n' (GatherElements): has no activation input", false, "in.onnx"},
    {"sim/workload/onnx/detection_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"x\" input: \"m\" " ONNX_OP("NonMaxSuppression"), ONNX_INT("m", "dims: 1 int64_data: 5")), ONNX,
     "node 'n' (NonMaxSuppression): needs boxes [1, B, 4] and scores [1, C, B]", false, "in.onnx"},
    {"sim/workload/onnx/detection_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"r\" input: \"b\" " ONNX_OP("RoiAlign"),
                                                       ONNX_FLOAT("r", "dims: 2 dims: 3") ONNX_TWO_INTS("b")), ONNX,
     "node 'n' (RoiAlign): needs rois [R, 4] (got [2x3])", false, "in.onnx"},
    {"sim/workload/onnx/detection_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"i\" " ONNX_OP("GatherElements") ONNX_ATTR_INT("axis", "5"), ONNX_TWO_INTS("i")), ONNX,
     "node 'n' (GatherElements): indexes along no axis the data has", false, "in.onnx"},
    {"sim/workload/onnx/detection_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"i\" " ONNX_OP("GatherND"), ONNX_INT("i", "dims: 1 dims: 5")), ONNX,
     "node 'n' (GatherND): its indices [1x5] do not index the data", false, "in.onnx"},
#define ONNX_TRUE ONNX_INT("c", "int64_data: 1")
#define ONNX_THEN(G) "attribute { name: \"then_branch\" type: GRAPH g { " G " } } "
    {"sim/workload/onnx/detection_ops.cpp", ONNX_GRAPH("input: \"c\" " ONNX_OP("If"), ONNX_TRUE), ONNX,
     "node 'n' (If): has no branch graph for its condition", false, "in.onnx"},
    {"sim/workload/onnx/detection_ops.cpp", ONNX_GRAPH("input: \"c\" " ONNX_OP("If") ONNX_THEN(""), ONNX_TRUE), ONNX,
     "node 'n' (If): its branch has a different number of outputs than the node", false, "in.onnx"},
    {"sim/workload/onnx/detection_ops.cpp", ONNX_GRAPH("input: \"c\" " ONNX_OP("If") ONNX_THEN("output { name: \"z\" }"), ONNX_TRUE), ONNX,
     "node 'n' (If): its branch output 'z' is made by no node", false, "in.onnx"},
    // Loop (loop_ops.cpp): M, cond, one carried value; the body (i, c, a) -> (c, a).
#define ONNX_BODY(G) "attribute { name: \"body\" type: GRAPH g { " G " } } "
#define ONNX_BODY_IO(NODES, OUT) ONNX_BODY(NODES "input { name: \"i\" } input { name: \"c\" } input { name: \"a\" } output { name: \"c\" } output { name: \"" OUT "\" }")
#define ONNX_TWO ONNX_INT("m", "int64_data: 2")
    {"sim/workload/onnx/loop_ops.cpp", ONNX_GRAPH("input: \"\" input: \"\" input: \"x\" " ONNX_OP("Loop"), ""), ONNX,
     "node 'n' (Loop): has no trip count: it runs until its condition turns false, a number of trips ridge cannot bound", false, "in.onnx"},
    {"sim/workload/onnx/loop_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"\" input: \"x\" " ONNX_OP("Loop"), ""), ONNX,
     "node 'n' (Loop): its trip count is computed from the data's values, not from sizes ridge knows", false, "in.onnx"},
    {"sim/workload/onnx/loop_ops.cpp", ONNX_GRAPH("input: \"m\" input: \"\" input: \"x\" " ONNX_OP("Loop"), ONNX_INT("m", "int64_data: 0")), ONNX,
     "node 'n' (Loop): runs 0 trips (ridge counts loops of 1 to 2^32 trips)", false, "in.onnx"},
    {"sim/workload/onnx/loop_ops.cpp", ONNX_GRAPH("input: \"m\" input: \"f\" input: \"x\" " ONNX_OP("Loop"), ONNX_TWO ONNX_INT("f", "int64_data: 0")), ONNX,
     "node 'n' (Loop): its condition is false before the first trip: it runs no trip", false, "in.onnx"},
    {"sim/workload/onnx/loop_ops.cpp", ONNX_GRAPH("input: \"m\" input: \"\" input: \"x\" " ONNX_OP("Loop"), ONNX_TWO), ONNX,
     "node 'n' (Loop): has no body graph", false, "in.onnx"},
    {"sim/workload/onnx/loop_ops.cpp", ONNX_GRAPH("input: \"m\" input: \"\" input: \"x\" " ONNX_OP("Loop") ONNX_BODY(""), ONNX_TWO), ONNX,
     "node 'n' (Loop): its body takes 0 inputs and gives 0 outputs for 1 loop-carried values", false, "in.onnx"},
    {"sim/workload/onnx/loop_ops.cpp", ONNX_GRAPH("input: \"m\" input: \"\" input: \"x\" output: \"z\" " ONNX_OP("Loop") ONNX_BODY_IO("", "a"), ONNX_TWO), ONNX,
     "node 'n' (Loop): has scan outputs, which ridge does not model", false, "in.onnx"},
    {"sim/workload/onnx/loop_ops.cpp", ONNX_GRAPH("input: \"m\" input: \"\" input: \"x\" " ONNX_OP("Loop") ONNX_BODY_IO("", "zz"), ONNX_TWO), ONNX,
     "node 'n' (Loop): its body output 'zz' is made by no node", false, "in.onnx"},
    {"sim/workload/onnx/loop_ops.cpp",
     ONNX_GRAPH("input: \"m\" input: \"\" input: \"x\" " ONNX_OP("Loop")
                    ONNX_BODY_IO("node { input: \"a\" input: \"a\" output: \"b\" op_type: \"Concat\" " ONNX_ATTR_INT("axis", "1") " } ", "b"),
                ONNX_TWO),
     ONNX, "node 'n' (Loop): its loop-carried value 'a' changes from [1x3x8x8] to [1x6x8x8] in a trip, other than an empty tensor appended to along one axis", false, "in.onnx"},
    {"sim/workload/onnx/indexing_ops.cpp",
     ONNX_GRAPH("input: \"m\" input: \"\" input: \"x\" " ONNX_OP("Loop")
                    ONNX_BODY_IO("node { name: \"s\" input: \"a\" input: \"a\" input: \"a\" output: \"b\" op_type: \"Slice\" } ", "b"),
                ONNX_TWO),
     ONNX, "node 's' (Slice): slices between bounds computed from the data without naming its axes", false, "in.onnx"},
    // --set onnx.proposals above the RPN's post-NMS top-N (the Slice after its NMS cuts at 3).
    {"sim/workload/onnx/detection_ops.cpp",
     ONNX_NODES(ONNX_NODE("r", "input: \"x\" input: \"bs\" output: \"b\" op_type: \"Reshape\"")
                ONNX_NODE("mx", "input: \"b\" output: \"m\" op_type: \"ReduceMax\" " ONNX_INTS("axes", "ints: 2") ONNX_ATTR_INT("keepdims", "1"))
                ONNX_NODE("t", "input: \"m\" output: \"s\" op_type: \"Transpose\" " ONNX_INTS("perm", "ints: 0 ints: 2 ints: 1"))
                ONNX_NODE("/rpn/NonMaxSuppression", "input: \"b\" input: \"s\" input: \"most\" output: \"sel\" op_type: \"NonMaxSuppression\"")
                ONNX_NODE("g", "input: \"sel\" input: \"two\" output: \"idx\" op_type: \"Gather\" " ONNX_ATTR_INT("axis", "1"))
                ONNX_NODE("k", "input: \"idx\" input: \"zero\" input: \"three\" input: \"zero\" output: \"y\" op_type: \"Slice\""),
                ONNX_INT("bs", "dims: 3 int64_data: 1 int64_data: 48 int64_data: 4") ONNX_INT("most", "dims: 1 int64_data: 100")
                ONNX_INT("two", "int64_data: 2") ONNX_INT("zero", "dims: 1 int64_data: 0") ONNX_INT("three", "dims: 1 int64_data: 3")),
     ONNX " --set onnx.proposals=5", "--set onnx.proposals=5: the graph keeps at most 3 proposals per image after node '/rpn/NonMaxSuppression' (its post-NMS top-N)", false, "in.onnx"},
    {"sim/workload/onnx/layers.cpp", ONNX_GRAPH("input: \"x\" " ONNX_OP("Foo"), ""), ONNX, "node 'n' (Foo): ridge does not model op type 'Foo'", false, "in.onnx"},
    {"sim/workload/onnx/layers.cpp", ONNX_GRAPH("input: \"w\" " ONNX_OP("Foo"), ONNX_FLOAT("w", "dims: 3")), ONNX " --allow-unknown",
     "node 'n' (Foo): ridge does not model op type 'Foo' and it has no activation input to stand in for", false, "in.onnx"},
    // Shapes that disagree, and tensors whose data cannot be what their shape says (issue #28).
    {"sim/workload/onnx/initializers.cpp", ONNX_GRAPH("input: \"x\" " ONNX_OP("Relu"), ONNX_FLOAT("w", "dims: 1000000 dims: 1000000")), ONNX,
     "tensor 'w' of shape [1000000x1000000] has 1000000000000 elements, more than the limit of 2^37", false, "in.onnx"},
    {"sim/workload/onnx/initializers.cpp", ONNX_GRAPH("input: \"x\" " ONNX_OP("Relu"), ONNX_FLOAT("w", "dims: 2 dims: 3 raw_data: \"\\000\\000\\000\\000\"")),
     ONNX, "tensor 'w' of shape [2x3] holds 1 values, fewer than its shape's 6", false, "in.onnx"},
    {"sim/workload/onnx/matmul_ops.cpp", ONNX_NODES(ONNX_F ONNX_NODE("n", "input: \"f\" input: \"w\" " ONNX_OP("Gemm")), ONNX_FLOAT("w", "dims: 100 dims: 2")),
     ONNX, "node 'n' (Gemm): the weight [100x2] multiplies 100 features, but the input [1x192] has 192", false, "in.onnx"},
    {"sim/workload/onnx/conv_ops.cpp", ONNX_GRAPH("input: \"x\" input: \"w\" " ONNX_OP("Conv"), ONNX_FLOAT("w", "dims: 4 dims: 2 dims: 3 dims: 3")), ONNX,
     "node 'n' (Conv): the weight [4x2x3x3] reads 2 input channels, but the input [3x8x8] has 3", false, "in.onnx"},
    // sim/base/toml_fields.cpp: the checks every TOML reader shares, through a model file
    {TF, "name = \n", ANALYZE, "invalid TOML", true},
    {TF, MODEL LAYER("l", "linear"), ANALYZE, "layer 'l' (linear): missing required key 'out_features'", true},
    {TF, "name = 1\n[input]\nshape = [4]\n" LAYER("l", "relu"), ANALYZE, "model: 'name' must be a string (got an integer)", true},
    {TF, "name = \"a\\u0001b\"\n[input]\nshape = [4]\n" LAYER("l", "relu"), ANALYZE,
     "'name' must not contain control characters (got character 0x01)", true},
    {TF, "", "{ printf 'name = \"'; printf 'm%.0s' $(seq 257); printf '\"\\n[input]\\nshape = [4]\\n'; } > in.toml && " ANALYZE,
     "'name' is 257 bytes long, longer than the 256 a name may be", true},
    {TF, MODEL LAYER("l", "linear") "out_features = 1.5\n", ANALYZE, "'out_features' must be an integer (got a number)", true},
    {TF, MODEL LAYER("l", "linear") "out_features = 0\n", ANALYZE, "'out_features' must be positive (got 0)", true},
    {TF, MODEL LAYER("d", "dropout") "p = \"x\"\n", ANALYZE, "'p' must be a number (got a string)", true},
    {TF, MODEL LAYER("d", "dropout") "p = nan\n", ANALYZE, "'p' must be a number, not nan", true},
    {TF, MODEL LAYER("l", "linear") "out_features = 2\nbias = 1\n", ANALYZE, "'bias' must be true or false (got an integer)", true},
    {TF, CHW_MODEL LAYER("p", "max_pool2d") "kernel = [2, 0]\n", ANALYZE, "'kernel' must be positive (got 0)", true},
    {TF, CHW_MODEL LAYER("p", "max_pool2d") "kernel = [1, 2, 3]\n", ANALYZE, "'kernel' must be an integer or a pair [h, w] of integers", true},
    {TF, "name = \"m\"\n[input]\nshape = 4\n" LAYER("l", "relu"), ANALYZE, "'shape' must be an array of integers (got an integer)", true},
    {TF, "name = \"m\"\n[input]\nshape = [1.5]\n" LAYER("l", "relu"), ANALYZE, "'shape' must be an array of integers (an element is a number)", true},
    {TF, "name = \"m\"\n[input]\nshape = [0]\n" LAYER("l", "relu"), ANALYZE, "'shape' elements must be positive (got 0)", true},
    {TF, MODEL LAYER("l", "relu") "inputs = \"a\"\n", ANALYZE, "'inputs' must be an array of strings (got a string)", true},
    {TF, MODEL LAYER("l", "relu") "inputs = [1]\n", ANALYZE, "'inputs' must be an array of strings (an element is an integer)", true},
    {TF, "name = \"m\"\ninput = 1\n" LAYER("l", "relu"), ANALYZE, "model: 'input' must be a table (got an integer)", true},
    {TF, "name = \"m\"\nlayer = 1\n[input]\nshape = [4]\n", ANALYZE, "model: 'layer' must be an array (got an integer)", true},
    {TF, MODEL LAYER("l", "relu") "foo = 1\n", ANALYZE, "layer 'l' (relu): unknown key 'foo'", true},
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
    {"hw/descriptor_reader.cpp", HW_HEAD HW_COMPUTE HW_MEM "[efficiency]\ndequant_ops = -1\nsource = \"s\"\n", ANALYZE_HW,
     "'dequant_ops' must be >= 0", true},
    {"hw/descriptor_reader.cpp", HW_HEAD HW_COMPUTE HW_MEM "[efficiency]\ncompute_units = 108\nsource = \"s\"\n", ANALYZE_HW,
     "compute_units and gemm_tile go together", true},
    {"hw/descriptor_reader.cpp", HW_HEAD HW_COMPUTE HW_MEM "[efficiency]\ncompute_units = 0\ngemm_tile = [128, 128]\nsource = \"s\"\n",
     ANALYZE_HW, "'compute_units'", true},
    {"hw/descriptor_reader.cpp", HW_HEAD HW_COMPUTE HW_MEM "[efficiency]\ncompute_units = 8\ngemm_tile = [128, -1]\nsource = \"s\"\n",
     ANALYZE_HW, "'gemm_tile'", true},
    {"hw/descriptor_reader.cpp", "", SET "compute.fp32", "an override must be KEY=VALUE (got 'compute.fp32')", false},
    {"hw/descriptor_reader.cpp", "", SET "=1", "an override has no key before '='", false},
    {"hw/descriptor_reader.cpp", "", SET "'compute.fp32=\"1\n2 TFLOPS\"'", "an override value must be one line", false},
    {"hw/descriptor_reader.cpp", "", SET "'memory.X.bandwidth=\"1 TB/s\"'", "no memory level 'X' to override", false},
    {"hw/descriptor_reader.cpp", "", SET "'comptue.fp32=\"1 TFLOPS\"'", "unknown hardware key 'comptue.fp32'", false},
    {"hw/descriptor_reader.cpp", HW_HEAD HW_COMPUTE "[[memory]]\nname = \"D\"\ncapacity = \"1 GiB\"\nchannels = 9000000000000000000\n"
     "transfer_rate = \"1e300 MT/s\"\n", ANALYZE_HW, "'channels' gives a bandwidth too large to compute with", true},
    {"hw/descriptor_reader.cpp", HW_HEAD "memory = []\n" HW_COMPUTE, ANALYZE_HW, "descriptor: 'memory' has no level", true},
    {"hw/descriptor_reader.cpp", HW_HEAD HW_COMPUTE,
     "for i in $(seq 17); do printf '[[memory]]\\nname = \"L%d\"\\ncapacity = \"1 GiB\"\\nbandwidth = \"1 TB/s\"\\n' $i; done >> in.toml && " ANALYZE_HW,
     "'memory' has 17 levels, more than the limit of 16", true},
    {"hw/descriptor_reader.cpp", HW_HEAD "link = \"x\"\n" HW_COMPUTE HW_MEM, ANALYZE_HW " --set 'link.bandwidth=1 GB/s'",
     "--set link.bandwidth=1 GB/s: cannot apply override 'link.bandwidth': 'link' is not a table in the descriptor", false},
    {"hw/descriptor_reader.cpp", "", SET "\"compute.fp32=$(printf '\\001')\"", "override value is not valid text", false},
    {"hw/descriptor_reader.cpp", "", "ln -s loop.toml loop.toml && RIDGE analyze mlp --hw ./loop.toml",
     "cannot read hardware descriptor './loop.toml'", false},
    {"hw/descriptor_reader.cpp", "", SET "sockets=0", "--set sockets=0: descriptor: 'sockets' must be positive (got 0)", false},
    {"hw/descriptor_reader.cpp", HW_HEAD HW_COMPUTE HW_MEM, ANALYZE_HW " --set 'link.bandwidth=1 GB/s'",
     "--set link.bandwidth=1 GB/s: link: missing required key 'name'", false},
    // hw/power_price.cpp ([power] and [price] of a descriptor)
    {"hw/power_price.cpp", HW_HEAD HW_COMPUTE HW_MEM "[power]\nboard = \"7 kW\"\n", ANALYZE_HW, "power: 'board' is 7000 W, above the 3000 W", true},
    {"hw/power_price.cpp", HW_HEAD HW_COMPUTE HW_MEM "[price]\nlaunch_usd = -699\n", ANALYZE_HW,
     "price: 'launch_usd' must be a price greater than zero in US dollars (got -699)", true},
    {"hw/power_price.cpp", HW_HEAD HW_COMPUTE HW_MEM "[power]\ncpu = \"100 W\"\n", ANALYZE_HW, "is a host's figure, and this descriptor is a gpu", true},
    {"hw/power_price.cpp", HW_HEAD HW_COMPUTE HW_MEM "[power]\nboard = \"100 W\"\nidle = \"150 W\"\n", ANALYZE_HW,
     "'idle' (150 W) is above the most the device draws (100 W)", true},
    {"hw/power_price.cpp", HW_HEAD HW_COMPUTE HW_MEM "[power]\nprocess_nm = 0\n", ANALYZE_HW, "must be a process node in nm between 1 and 1000", true},
    {"hw/power_price.cpp", HW_HEAD HW_COMPUTE HW_MEM "[price]\ncloud_usd_per_hour = 1.5\n", ANALYZE_HW, "needs a 'cloud_offer' saying whose price it is", true},
    // sim/base/int_expression.cpp: integer expressions ([params], and sizes written as strings)
#define IE "sim/base/int_expression.cpp"
#define EXPR_MODEL(E) "name = \"m\"\n[input]\nshape = [\"" E "\"]\n" LAYER("r", "relu")
    {IE, EXPR_MODEL(" "), ANALYZE, "empty expression (got \" \")", true},
    {IE, EXPR_MODEL("4)"), ANALYZE, "unexpected ')' in expression (got \"4)\")", true},
    {IE, EXPR_MODEL("4294967296 * 4294967296"), ANALYZE, "the expression overflows 64 bits", true},
    {IE, EXPR_MODEL("4 / 0"), ANALYZE, "division by zero (got \"4 / 0\")", true},
    {IE, EXPR_MODEL("(0 - 9223372036854775807 - 1) / -1"), ANALYZE, "the expression overflows 64 bits", true},
    {IE, EXPR_MODEL("-----------------------------------------------------------------1"), ANALYZE, "the expression is nested more than 64 deep", true},
    {IE, EXPR_MODEL("5 / 2"), ANALYZE, "5 / 2 is not a whole number", true},
    {IE, EXPR_MODEL("4 +"), ANALYZE, "expression ends too early (got \"4 +\")", true},
    {IE, EXPR_MODEL("(4"), ANALYZE, "missing ')' (got \"(4\")", true},
    {IE, EXPR_MODEL("99999999999999999999"), ANALYZE, "the number overflows 64 bits", true},
    {IE, EXPR_MODEL("d"), ANALYZE, "unknown name 'd' (got \"d\")", true},
    {IE, EXPR_MODEL("*4"), ANALYZE, "unexpected '*' in expression (got \"*4\")", true},
    // more layer types' attributes
#define TOKENS "name = \"m\"\n[input]\nshape = [4, 8]\n"
#define ATTENTION LAYER("a", "attention") "inputs = [\"@input\", \"@input\", \"@input\"]\n"
    {"sim/workload/ops/activation.cpp", MODEL LAYER("p", "pow"), ANALYZE, "layer 'p' (pow): 'exponent' is required (the constant power)", true},
    {"sim/workload/ops/attention.cpp", TOKENS ATTENTION "heads = 2\nkv_heads = 3\n", ANALYZE, "'kv_heads' must divide heads = 2 (got 3)", true},
    {"sim/workload/ops/attention.cpp", TOKENS ATTENTION "heads = 2\ncausal = false\nwindow = 4\n", ANALYZE, "'window' needs causal = true", true},
    {"sim/workload/ops/attention.cpp", TOKENS ATTENTION "heads = 2\nattention = \"flash\"\n", ANALYZE,
     "'attention' must be \"fused\" or \"unfused\" (got \"flash\")", true},
    {"sim/workload/ops/attention.cpp", TOKENS ATTENTION "heads = 2\nskip_masked = true\n", ANALYZE,
     "'skip_masked' needs attention = \"fused\" and causal = true", true},
    {"sim/workload/ops/parameter.cpp", MODEL LAYER("w", "parameter") "shape = []\n", ANALYZE, "layer 'w' (parameter): 'shape' must have at least one dimension", true},
    {"sim/workload/ops/parameter.cpp", MODEL LAYER("w", "parameter") "shape = [4]\nlearned = -1\n", ANALYZE, "'learned' must not be negative", true},
    {"sim/workload/ops/reduction.cpp", TOKENS LAYER("r", "reduce_mean") "axes = []\n", ANALYZE, "'axes' must name at least one axis", true},
    {"sim/workload/ops/reduction.cpp", TOKENS LAYER("r", "reduce_mean") "axes = [2]\n", ANALYZE, "'axes' must be in [-2, 2) for the input 4x8", true},
    {"sim/workload/ops/reduction.cpp", TOKENS LAYER("c", "cumsum") "axis = 2\n", ANALYZE, "'axis' must be in [-2, 2) for the input 4x8", true},
    {"sim/workload/ops/recurrent.cpp", TOKENS LAYER("l", "rnn") "hidden_size = 2\nnonlinearity = \"gelu\"\n", ANALYZE,
     "'nonlinearity' must be 'tanh' or 'relu' (got 'gelu')", true},
    {"sim/workload/ops/recurrent.cpp", TOKENS LAYER("l", "lstm") "hidden_size = 8\ninput_mode = \"fused\"\n", ANALYZE,
     "'input_mode' must be \"linear\" or \"skip\" (got \"fused\")", true},
    {"sim/workload/ops/recurrent.cpp", TOKENS LAYER("l", "gru") "hidden_size = 4\ninput_mode = \"skip\"\n", ANALYZE,
     "\"skip\" adds the input to the gates as it is: it needs input features = hidden_size (got 8 and 4)", true},
    {"sim/workload/ops/rotary.cpp", TOKENS LAYER("r", "rotary") "head_dim = 3\n", ANALYZE, "'head_dim' must be even: rotary rotates pairs of features (got 3)", true},
    {"sim/workload/ops/rotary.cpp", TOKENS LAYER("r", "rotary") "head_dim = 4\nbase = -1.0\n", ANALYZE, "'base' must be positive", true},
    // finding a model, a descriptor and a hardware model by name or path
    {"sim/workload/model_catalog.cpp", "", "RIDGE analyze ./nope.toml", "no model file './nope.toml'", false},
    {"sim/workload/onnx/initializers.cpp", ONNX_RELU, ONNX " --set model.d=4", "--set model.d: the graph input 'x' has no symbolic dimension 'd'", false, "in.onnx"},
    {"sim/workload/model_catalog.cpp", "", "RIDGE analyze alexnt", "unknown model 'alexnt'", false},
    {"sim/workload/model_catalog.cpp", "", "RIDGE analyze mlp --set onnx.max_detections=5", "--set onnx.max_detections applies to ONNX models only", false},
    {"sim/workload/onnx/reader.cpp", ONNX_RELU, ONNX " --set onnx.max_boxes=5", "--set onnx.max_boxes: unknown ONNX setting", false, "in.onnx"},
    {"sim/workload/onnx/reader.cpp", ONNX_RELU, ONNX " --set onnx.proposals=-5", "--set onnx.proposals=-5: the proposals per image must be a positive integer", false, "in.onnx"},
    {"sim/workload/onnx/reader.cpp", ONNX_RELU, ONNX " --set onnx.proposals=5", "--set onnx.proposals: the graph has no region proposal network (a NonMaxSuppression of module 'rpn' or on its boxes)", false, "in.onnx"},
    {"hw/hardware_catalog.cpp", "", "RIDGE analyze mlp --hw ./nope.toml", "no hardware descriptor file './nope.toml'", false},
    {"hw/hardware_catalog.cpp", "", "RIDGE analyze mlp --hw v1000", "unknown hardware 'v1000'", false},
    {"hw/model_registry.cpp", "", "RIDGE analyze mlp --hw v100 --hw-model roofline2", "unknown hardware model 'roofline2'", false},
    {"hw/model_registry.cpp", HW_HEAD "model = \"roofline2\"\n" HW_COMPUTE HW_MEM, ANALYZE_HW,
     "descriptor: 'model' names an unknown hardware model 'roofline2'", true},
    // hw/calibration.cpp: a descriptor's [calibration] (written by ridge calibrate)
#define CAL HW_HEAD HW_COMPUTE HW_MEM "[calibration]\ndata = \"d\"\ndate = \"2026-01-01\"\n"
#define CAL_CLASS "[[calibration.class]]\nop_class = \"linear\"\ndtype = \"fp32\"\n"
    {"hw/calibration.cpp", CAL CAL_CLASS "compute = 2.0\n", ANALYZE_HW, "calibration class: 'compute' must be a fraction in (0, 1] (got 2)", true},
    {"hw/calibration.cpp", CAL CAL_CLASS "n_half_flops = -1.0\n", ANALYZE_HW, "'n_half_flops' must not be negative (got -1)", true},
    {"hw/calibration.cpp", HW_HEAD HW_COMPUTE HW_MEM "[calibration]\ndata = \"\"\ndate = \"2026-01-01\"\n" CAL_CLASS, ANALYZE_HW,
     "calibration: 'data' must name the measured data set the fit used", true},
    // (no `class` at all is a fit that kept none, and reads back: test_calibration)
    {"hw/calibration.cpp", CAL "class = [1, 2]\n", ANALYZE_HW, "calibration: 'class' must be an array of tables", true},
    {"hw/calibration.cpp", CAL "[[calibration.class]]\nop_class = \"lineer\"\ndtype = \"fp32\"\n", ANALYZE_HW, "unknown op class 'lineer'", true},
    {"hw/calibration.cpp", CAL "[[calibration.class]]\nop_class = \"linear\"\ndtype = \"fp13\"\n", ANALYZE_HW, "unknown dtype 'fp13'", true},
    {"hw/calibration.cpp", CAL CAL_CLASS CAL_CLASS, ANALYZE_HW, "'linear' with dtype fp32 is calibrated twice", true},
    {"hw/calibration.cpp", CAL CAL_CLASS "memory = { L9 = 0.5 }\n", ANALYZE_HW,
     "calibration class memory: 'L9' is not a memory level of this descriptor", true},
    {"hw/calibration.cpp", CAL CAL_CLASS "memory = {}\n", ANALYZE_HW, "calibration class: 'memory' names no memory level", true},
    {"hw/calibration.cpp", CAL "[calibration.peaks]\nfp13 = \"1 TFLOPS\"\n", ANALYZE_HW, "unknown dtype 'fp13'", true},
    {"hw/calibration.cpp", CAL "[calibration.bandwidths]\nL9 = \"1 TB/s\"\n", ANALYZE_HW,
     "calibration bandwidths: 'L9' is not a memory level of this descriptor", true},
    {"hw/descriptor_reader.cpp", CAL "[calibration.peaks]\nfp64 = \"1 TFLOPS\"\n", ANALYZE_HW,
     "[calibration.peaks] fits a fp64 peak, but [compute] has none", true},
    // hw/kernel_library.cpp: a descriptor's [library] (which kernel library runs a layer)
    {"hw/kernel_library.cpp", HW_HEAD HW_COMPUTE HW_MEM "[library]\nframework = \"f\"\nsource = \"s\"\nconvolution = \"\"\n",
     ANALYZE_HW, "library: 'convolution' must name a library", true},
    // hw/conv_algorithms.cpp: a descriptor's [conv_algorithms] (which algorithms may run a convolution)
#define CONV_ALG HW_HEAD HW_COMPUTE HW_MEM "[conv_algorithms]\nlibrary = \"cuDNN\"\nsource = \"s\"\n"
    {"hw/conv_algorithms.cpp", CONV_ALG "gemm_1x1_dtypes = [\"fp33\"]\n", ANALYZE_HW,
     "conv_algorithms: 'gemm_1x1_dtypes' names an unknown dtype 'fp33'", true},
    {"hw/conv_algorithms.cpp", CONV_ALG "winograd_dtypes = [\"fp32\"]\n", ANALYZE_HW,
     "conv_algorithms: 'winograd_dtypes' is read only with winograd = true", true},
    {"hw/conv_algorithms.cpp", CONV_ALG "winograd_tile = 4\n", ANALYZE_HW,
     "conv_algorithms: 'winograd_tile' is read only with winograd = true", true},
    {"hw/conv_algorithms.cpp", CONV_ALG "bound_only = true\ntensor_core_channels = 8\n", ANALYZE_HW,
     "conv_algorithms: 'tensor_core_channels' is a library's efficiency, which a bound_only rule does not time", true},
    // plots/: the figure's options
#define ROOF "RIDGE plot roofline mlp --hw v100"
#define PS "plots/plot_style.cpp"
    {PS, "", ROOF " --output o.xyz", "--output: cannot tell the image format of 'o.xyz'", false},
    {PS, "", ROOF " --output o.svg --size 1200x800px", "--size: pixels are for PNG output (got '1200x800px')", false},
    {PS, "", ROOF " --output o.png --size 1x4", "--size: 1 is outside 1.5 to 40 inches", false},
    {PS, "", ROOF " --output o.png --size 6", "--size: cannot read '6'", false},
    {PS, "", ROOF " --output o.png --size 6furlongx4", "--size: cannot read '6furlongx4'", false},
    {PS, "", ROOF " --output o.png --dpi 0", "--dpi must be between 50 and 1200 (got 0)", false},
    {PS, "", ROOF " --output o.svg --dpi 100", "--dpi is for PNG output", false},
    {PS, "", ROOF " --output o.png --style poster", "--style: unknown style (got 'poster')", false},
    {PS, "", ROOF " --output o.png --font 'a,b'", "--font: a font name has no ',' or control characters (got 'a,b')", false},
    {PS, "", ROOF " --output o.png --font-size 0", "--font-size must be between 4 and 72 points (got 0)", false},
    {"plots/roofline_plot.cpp", "", ROOF " --output o.png --size 1.5x1.5 --font-size 72", "--size is too small for this font size", false},
    {"plots/roofline_plot.cpp", "", ROOF " --output o.png --style column --font-size 40", "the figure is too small for its text at 40 pt", false},
    {"plots/layers_plot.cpp", "", "RIDGE plot layers mlp --hw v100 --output o.png --group blocks", "--group: unknown grouping (got 'blocks')", false},
    {"plots/layers_plot.cpp", "", "RIDGE plot layers mlp --hw v100 --output o.png --size 1.5x1.5", "--size is too small for 2 bars with these names", false},
    // sim/views/: tables as asked for
    {"sim/views/field_table.cpp", "", "RIDGE analyze mlp --columns name,,op", "--columns: an empty name in 'name,,op'", false},
    {"sim/views/output_format.cpp", "", "RIDGE query mlp --hw v100 --layer fc --format md", "--format: 'md' is not a format this command writes", false},
    // the engine's checks of a run against its model and hardware
#define NO_LINK HW_HEAD HW_COMPUTE HW_MEM
    {"sim/engine/calibration_fit.cpp", CSV_HEADER "a,l,linear,fp8,1,1,1\n", CALIBRATE, "v100 has no fp8 peak to calibrate against", true, "in.csv"},
    {"sim/engine/calibration_check.cpp", CSV_HEADER "a,l,linear,fp8,1,1,1\n", CALIBRATE " --check",
     "v100 has no fp8 peak to predict this row with", true, "in.csv"},
    {"sim/engine/calibration_fit.cpp", CSV_HEADER "a,l,linear,fp32,1,1,1\n", CALIBRATE,
     "op class 'linear' (fp32) has 1 measured row(s); fitting its 3 efficiency parameters needs at least 3", true, "in.csv"},
    {"sim/engine/calibration_fit.cpp", CSV_HEADER "a,l,linear,fp32,1,1,1\na,m,linear,fp32,2,2,2\na,n,linear,fp32,3,1,3\n", CALIBRATE " --cv-by fold",
     "no column 'fold' to cross-validate by", false, "in.csv"},
    {"sim/engine/layer_query.cpp", "", "RIDGE query mlp --hw v100 --layer nope", "no layer 'nope' in mlp", false},
    {"sim/engine/result.cpp", "", "RIDGE analyze mlp --hw v100 --dtype fp8", "v100 has no fp8 peak", false},
    {"sim/engine/sweep_run.cpp", "models = [\"nope\"]\nhardware = [\"v100\"]\n", "RIDGE sweep in.toml", "unknown model 'nope'", true},
    {"sim/engine/sweep_run.cpp", SWEEP "[[vary]]\nkey = \"model.width\"\nvalues = [4]\n", "RIDGE sweep in.toml", "[[vary]] key 'model.width' is not a parameter of model 'mlp'", true},
    {"sim/engine/sweep_run.cpp", SWEEP "[[vary]]\nkey = \"memory.L9.bandwidth\"\nvalues = [\"1 TB/s\"]\n", "RIDGE sweep in.toml",
     "[[vary]] key 'memory.L9.bandwidth' is not a key of hardware 'v100'", true},
    {"sim/engine/sweep_run.cpp", "models = [\"llama-2-7b\"]\nhardware = [\"v100\"]\n" VARY "unit = \"GB/s\"\nfrom = 1\nto = 1000\ncount = 3000\n",
     "RIDGE sweep in.toml --per-layer", "in.toml: --per-layer would write 1449000 rows (points x layers), more than the limit of 1000000", false},
    {"sim/workload/cost_analysis.cpp", "", "RIDGE analyze mlp --hw v100 --phase decode --context 8", "--phase decode needs a model with attention", false},
    {"sim/workload/cost_analysis.cpp", "", "RIDGE analyze gpt2 --hw v100 --phase decode --context 5000",
     "gpt2.toml:24:17: --context 5000 + the new token is longer than gpt2's max_positions = 1024 (got 5001)", false},
    {"sim/workload/cost_analysis.cpp", "", "RIDGE analyze mlp --batch 4611686018427387904", "at batch 4611686018427387904", false},
    {"sim/workload/memory_footprint.cpp", "", "RIDGE memory mlp --batch 4611686018427387904", "memory of model 'mlp' at batch 4611686018427387904", false},
    {"hw/timing_terms.cpp", NO_LINK, ANALYZE_HW " --data-on host", "has no [link], so --data-on host has no link to send the data over", false},
    // sim/cli/: the command line's own checks
#define AM "RIDGE analyze mlp"
#define RO "sim/cli/run_options.cpp"
    {"sim/cli/run_main.cpp", "", "RIDGE analyse mlp", "unknown command 'analyse'", false},
    {"sim/base/output_file.cpp", MODEL LAYER("l", "relu"), "RIDGE analyze ./in.toml --output in.toml", "the output would overwrite an input file of this run", true},
    {"sim/cli/analyze_request.cpp", "", "RIDGE analyze", "analyze: which model?", false},
    {"sim/cli/compare_options.cpp", "", "RIDGE compare mlp --hw v100 --price-basis rent", "--price-basis: unknown basis 'rent'", false},
    {"sim/cli/compare_options.cpp", "", "RIDGE compare mlp --hw v100 --years 0", "--years must be in (0, 100] (got 0)", false},
    {"sim/cli/compare_options.cpp", "", "RIDGE compare mlp --hw v100 --usd-per-kwh 200", "--usd-per-kwh must be in [0, 100] (got 200)", false},
    {"sim/cli/cmd_compare.cpp", "", "RIDGE compare --hw v100", "compare: which model?", false},
    {"sim/cli/cmd_compare.cpp", "", "RIDGE compare mlp", "compare: which devices?", false},
    {"sim/cli/cmd_compare.cpp", "", "RIDGE compare mlp --hw v100 --phase training --epochs 1 --dataset-size 10 --train-tokens 5",
     "--train-tokens and --epochs / --dataset-size both describe the run", false},
    {"sim/cli/cmd_compare.cpp", "", "RIDGE compare mlp --hw v100 --phase training --epochs 0",
     "a training run needs --epochs > 0 with --dataset-size > 0, or --train-tokens > 0", false},
    {"sim/cli/cmd_compare.cpp", "", "RIDGE compare mlp --hw v100 --epochs 1 --dataset-size 10", "a training run's cost needs --phase training", false},
    {"sim/cli/cmd_compare.cpp", "", "RIDGE compare mlp --hw v100 --phase training --train-tokens 1000",
     "--train-tokens needs a language model", false},
    {"sim/cli/cmd_calibrate.cpp", "", "RIDGE calibrate --hw v100", "calibrate: which measurements? (MEASURED.csv)", false},
    {"sim/cli/cmd_calibrate.cpp", "", "RIDGE calibrate in.csv", "calibrate: which hardware? (--hw)", false},
    {"sim/cli/cmd_calibrate.cpp", CSV_HEADER "a,l,linear,fp32,1,1,1\n", CALIBRATE " --check --output o.toml",
     "calibrate --check fits nothing, so it takes no --output, --fit-peaks or --shared", false, "in.csv"},
    {"sim/cli/cmd_calibrate.cpp", CSV_HEADER "a,l,linear,fp32,1,1,1\n", CALIBRATE " --check --overhead graph",
     "calibrate --check: unknown --overhead 'graph'", false, "in.csv"},
    {"sim/cli/cmd_calibrate.cpp", CSV_HEADER "a,l,linear,fp32,1,1,1\n", CALIBRATE " --overhead none",
     "calibrate: --overhead goes with --check", false, "in.csv"},
    {"sim/cli/cmd_generate.cpp", "", "RIDGE generate", "generate: which model?", false},
    {"sim/cli/cmd_generate.cpp", "", "RIDGE generate gpt2", "generate: which hardware? (--hw)", false},
    {"sim/cli/cmd_generate.cpp", "", "RIDGE generate gpt2 --hw v100 --prompt 0", "--prompt must be a positive number of tokens (got 0)", false},
    {"sim/cli/cmd_generate.cpp", "", "RIDGE generate gpt2 --hw v100 --prompt 8", "generate: how many tokens? --gen is missing", false},
    {"sim/cli/cmd_generate.cpp", "", "RIDGE generate llama-2-70b --prompt 8 --gen 2 --gpus 8", "--gpus needs --parallel", false},
    {"sim/cli/cmd_generate.cpp", "", "RIDGE generate llama-2-70b --prompt 8 --gen 2 --parallel tp=8 --hw a100", "--hw does not go with --parallel", false},
    {"sim/cli/cmd_generate.cpp", "", "RIDGE generate llama-2-70b --prompt 8 --gen 2 --parallel tp=8,dp=2", "--parallel tp=8,dp=2: generate serves one replica, so dp must be 1", false},
    {"sim/cli/cmd_generate.cpp", "", "RIDGE generate llama-2-70b --prompt 8 --gen 2 --parallel tp=8,cp=2", "--parallel tp=8,cp=2: generate does not split the sequence, so cp must be 1", false},
    {"sim/cli/cmd_generate.cpp", "", "RIDGE generate mixtral-8x7b --prompt 8 --gen 2 --parallel dp=4,ep=8", "--parallel dp=4,ep=8: with ep=8 generate needs dp=8 (got dp=4)", false},
    {"sim/cli/cmd_generate.cpp", "", "RIDGE generate mixtral-8x7b --prompt 8 --gen 2 --parallel tp=2,dp=4,ep=4", "--parallel tp=2,dp=4,ep=4: tp with ep is not modelled for serving", false},
    {"sim/cli/cmd_generate.cpp", "", "RIDGE generate mixtral-8x7b --hw h100 --prompt 8 --gen 2 --expert-imbalance 1.5", "--expert-imbalance needs --parallel with ep > 1", false},
    {"sim/cli/parallel_options.cpp", "", "RIDGE generate llama-2-70b --prompt 8 --gen 2 --system dgx-h100 --parallel tp=4 --gpus 8", "--gpus 8 is not tp x pp x dp x cp = 4", false},
    {"sim/cli/fit_check.cpp", "", "RIDGE generate mixtral-8x7b --hw a100 --prompt 128 --gen 128",
     "does not fit in device memory: mixtral-8x7b at batch 1 needs", false},
    {"sim/engine/generation.cpp", "", "RIDGE generate gpt2 --hw v100 --prompt 1000 --gen 26",
     "gpt2.toml:24:17: --prompt 1000 + --gen 26 - 1 tokens are longer than gpt2's max_positions = 1024", false},
    {"sim/cli/cmd_import.cpp", "", "RIDGE import", "import: which ONNX file?", false},
    {"sim/cli/cmd_import.cpp", "", "RIDGE import m.toml", "m.toml: is not an .onnx file", false},
    {"sim/cli/cmd_import.cpp", "", "RIDGE import m.onnx --set hbm=1", "import: --set hbm=1 names no model dimension", false},
    {"sim/cli/cmd_list.cpp", "", "RIDGE list modles", "list: unknown list 'modles'", false},
    {"sim/cli/cmd_memory.cpp", "", "RIDGE memory", "memory: which model?", false},
    {"sim/cli/cmd_memory.cpp", "", "RIDGE memory mlp --phase training --checkpoint most", "--checkpoint: unknown policy 'most'", false},
    {"sim/cli/cmd_memory.cpp", "", "RIDGE memory mlp --phase inference --checkpoint sqrt", "--checkpoint sqrt applies to training only", false},
    {"sim/cli/cmd_memory.cpp", "", "RIDGE memory mlp --reserve 100", "--reserve must be a percentage in [0, 100) (got 100)", false},
    {"sim/cli/cmd_memory.cpp", TOKENS ATTENTION "heads = 2\n", "RIDGE memory ./in.toml --phase decode",
     "--phase decode: m states no max_positions, so the context must be given", false},
    {"sim/cli/cmd_plot.cpp", "", "RIDGE plot", "plot: which kind?", false},
    {"sim/cli/cmd_plot.cpp", "", "RIDGE plot pie", "plot: unknown kind 'pie'", false},
    {"sim/cli/cmd_probe.cpp", "", "RIDGE probe --threads 2000", "--threads must be between 0 and ", false},
    {"sim/cli/cmd_query.cpp", "", "RIDGE query", "query: which model?", false},
    {"sim/cli/cmd_query.cpp", "", "RIDGE query gpt3 --system dgx-a100 --parallel tp=8 --layer layers.0.q", "--layer does not go with --parallel", false},
    {"sim/cli/cmd_query.cpp", "", "RIDGE query mlp", "query: which hardware? (--hw)", false},
    {"sim/cli/cmd_sweep.cpp", "", "RIDGE sweep", "sweep: which sweep file?", false},
    {"sim/cli/cmd_sweep.cpp", SWEEP, "RIDGE sweep in.toml --jobs 0", "--jobs must be 1 to 1024 (got 0)", false},
    {"sim/cli/plot_compare.cpp", "", "RIDGE plot compare --hw v100 --output o.png", "plot compare: which model?", false},
    {"sim/cli/plot_compare.cpp", "", "RIDGE plot compare mlp --output o.png", "plot compare: which devices?", false},
    {"plots/compare_plot.cpp", "", "RIDGE plot compare mlp --hw v100 --hw a100 --hw h100 --hw t4 --size 1.5x1.5 --output o.png",
     "--size is too small for 4 devices' bars", false},
    {"sim/cli/plot_layers.cpp", "", "RIDGE plot layers --output o.png", "plot layers: which model?", false},
    {"sim/cli/plot_layers.cpp", "", "RIDGE plot layers mlp --output o.png", "plot layers: which hardware? --hw is required", false},
    {"sim/cli/plot_layers.cpp", "", "RIDGE plot layers mlp --hw v100 --hw a100 --output o.png", "plot layers: one --hw at a time", false},
    {"sim/cli/plot_layers.cpp", "", "RIDGE plot layers mlp --hw v100 --output o.png --top 0", "--top must be 1 or more (got 0)", false},
    {"sim/cli/plot_options.cpp", "", ROOF, "plot: which file? --output is required", false},
    {"sim/cli/plot_options.cpp", "", ROOF " --output \"$(printf 'a\\001.png')\"", "--output: the file name holds a control character", false},
    {"sim/cli/plot_options.cpp", "", ROOF " --output .x.png", "--output: '.x.png' names no file (its name is empty or starts with '.')", false},
    {"sim/cli/plot_roofline.cpp", "", "RIDGE plot roofline --output o.png", "plot roofline: which model?", false},
    {"sim/cli/plot_roofline.cpp", "", "RIDGE plot roofline mlp --output o.png", "plot roofline: which hardware? --hw is required", false},
    {"sim/cli/plot_roofline.cpp", "", ROOF " --output o.png --labels -1", "--labels must be 0 or more (got -1)", false},
    {"sim/cli/plot_sweep.cpp", "", "RIDGE plot sweep --output o.png", "plot sweep: which CSV?", false},
    // sim/parallel: system descriptors, parallel plans, `ridge plan`
#define SYS_HEAD "name = \"s\"\nsource = \"t\"\ndevice = \"a100\"\ndomains = 2\n"
#define SYS_UP "[scale_up]\nname = \"u\"\ndevices = 8\nbandwidth = \"300 GB/s\"\nlatency = \"1 us\"\nefficiency = 0.8\n"
#define SYS_OUT "[scale_out]\nname = \"o\"\nnics = 8\nbandwidth = \"25 GB/s\"\nlatency = \"5 us\"\nefficiency = 0.8\n"
#define PLAN_SYS "RIDGE plan gpt3 --system ./in.toml --gpus 8 --global-batch 8"
#define SR "sim/parallel/system_reader.cpp"
#define PAR "RIDGE analyze gpt3 --system dgx-a100 --parallel "
#define PO "sim/cli/parallel_options.cpp"
#define PLAN "RIDGE plan gpt3 --system dgx-a100 "
    {SR, SYS_HEAD "[scale_up]\nname = \"u\"\ndevices = 8\nbandwidth = \"300 GB/s\"\nlatency = \"1 us\"\nefficiency = 2\n" SYS_OUT,
     PLAN_SYS, "scale_up: 'efficiency' must be a fraction in (0, 1] (got 2)", true},
    {SR, SYS_HEAD SYS_OUT, PLAN_SYS, "system: missing required table [scale_up]", true},
    {SR, "name = \"\"\nsource = \"t\"\ndevice = \"a100\"\ndomains = 2\n" SYS_UP SYS_OUT, PLAN_SYS, "'name' must not be empty", true},
    {SR, "name = \"s\"\nsource = \"\"\ndevice = \"a100\"\ndomains = 2\n" SYS_UP SYS_OUT, PLAN_SYS,
     "'source' must say where the numbers come from", true},
    {SR, "name = \"s\"\nsource = \"t\"\ndevice = \"x/a100.toml\"\ndomains = 2\n" SYS_UP SYS_OUT, PLAN_SYS,
     "'device' must name a shipped hardware descriptor", true},
    {SR, "name = \"s\"\nsource = \"t\"\ndevice = \"a101\"\ndomains = 2\n" SYS_UP SYS_OUT, PLAN_SYS, "unknown hardware 'a101'", true},
    {SR, SYS_HEAD SYS_UP SYS_OUT "oversubscription = 0.5\n", PLAN_SYS, "'oversubscription' must be between 1", true},
    {SR, SYS_HEAD SYS_UP "nccl_transport = \"nvlnk\"\n" SYS_OUT, PLAN_SYS, "'nccl_transport' must be nvlink, pcie or network (got \"nvlnk\")", true},
    {SR, SYS_HEAD SYS_UP "call_overhead = \"10 us\"\n" SYS_OUT, PLAN_SYS, "'call_overhead' needs nccl_transport", true},
    {SR, SYS_HEAD SYS_UP SYS_OUT "nccl_host = \"arm\"\n", PLAN_SYS, "'nccl_host' must be amd or intel (got \"arm\")", true},
    {SR, SYS_HEAD SYS_UP SYS_OUT "nccl_gpu = \"turing\"\n", PLAN_SYS, "'nccl_gpu' must be volta, ampere or hopper (got \"turing\")", true},
    {SR, "name = \"s\"\nsource = \"t\"\ndevice = \"a100\"\ndomains = 9000000\n" SYS_UP SYS_OUT, PLAN_SYS,
     "'domains' gives more than 16777216 devices", true},
    {SR, "", "RIDGE plan gpt3 --system ./none.toml --gpus 8 --global-batch 8", "no system descriptor file './none.toml'", false},
    {SR, "", "RIDGE plan gpt3 --system dgx-a10 --gpus 8 --global-batch 8", "unknown system 'dgx-a10'", false},
    {SR, "", "ln -s loop.toml loop.toml && RIDGE plan gpt3 --system ./loop.toml --gpus 8 --global-batch 8", "cannot read system descriptor './loop.toml'", false},
    {"sim/parallel/parallel_plan.cpp", "", PAR "tp8", "--parallel: 'tp8' is not KEY=N", false},
    {"sim/parallel/parallel_plan.cpp", "", PAR "tp=x", "--parallel: tp='x' is not a whole number", false},
    {"sim/parallel/parallel_plan.cpp", "", PAR "tp=0", "--parallel: tp=0 must be between 1 and 16777216", false},
    {"sim/parallel/parallel_plan.cpp", "", PAR "tp=2,tp=2", "--parallel: 'tp' is given twice", false},
    {"sim/parallel/parallel_plan.cpp", "", PAR "xp=2", "--parallel: unknown key 'xp'", false},
    // sim/parallel/plan_check.cpp: one throw site (check_plan) for every reason a plan
    // cannot run (plan_problem), so one row per reason; each must come with a hint
    // (InputErrorTable.PlanChecksEachWithAHint). gpt3: 96 layers, 96 heads, hidden
    // 12,288, seq 2,048; mixtral-8x7b: 8 experts; dgx-a100: 4,480 devices.
#define PC "sim/parallel/plan_check.cpp"
#define MIX "RIDGE analyze mixtral-8x7b --system dgx-h100 --parallel "
    {PC, "", PAR "tp=5", "plan for 'gpt3': tp=5 does not divide the 96 attention heads", false},
    {PC, "", PAR "pp=128", "plan for 'gpt3': pp=128 is more than the 96 layers", false},
    {PC, "", PAR "pp=5", "plan for 'gpt3': pp=5 does not divide the 96 layers", false},
    {PC, "", PAR "pp=2 --interleave 0", "plan for 'gpt3': --interleave must be at least 1 (got 0)", false},
    {PC, "", PAR "tp=8 --interleave 2", "plan for 'gpt3': --interleave 2 needs pp > 1", false},
    {PC, "", PAR "pp=2 --interleave 5", "plan for 'gpt3': --interleave 5 does not divide the 48 layers of a stage", false},
    {PC, "", PAR "dp=2,ep=2", "plan for 'gpt3': ep=2 needs a mixture-of-experts model", false},
    {PC, "", MIX "dp=3,ep=3", "plan for 'mixtral-8x7b': ep=3 does not divide the 8 experts", false},
    {PC, "", MIX "dp=2,ep=4", "plan for 'mixtral-8x7b': ep=4 does not divide dp x cp = 2", false},
    {PC, "", MIX "dp=8,ep=8 --expert-imbalance 0.5", "plan for 'mixtral-8x7b': --expert-imbalance must be at least 1", false},
    {PC, "", MIX "dp=2 --expert-imbalance 2", "plan for 'mixtral-8x7b': --expert-imbalance needs ep > 1", false},
    {PC, "", MIX "dp=8,ep=8 --expert-imbalance 9",
     "plan for 'mixtral-8x7b': --expert-imbalance 9.00 is more than routing allows at ep=8: ep x min(top_k, experts / ep) / top_k = 4.00", false},
    {PC, "", MIX "tp=2,dp=2,ep=2", "plan for 'mixtral-8x7b': ep=2 with tp=2 needs --sequence-parallel", false},
    {PC, "", PAR "tp=8,cp=3", "plan for 'gpt3': cp=3 does not split the sequence of 2048 into 2 x cp = 6 equal chunks", false},
    {PC, "", PAR "tp=8 --microbatch 0", "plan for 'gpt3': --microbatch must be at least 1 (got 0)", false},
    {PC, "", PAR "dp=2 --global-batch 3", "plan for 'gpt3': global batch 3 is not divisible by microbatch 1 x dp 2", false},
    {PC, "", PAR "pp=2 --interleave 2 --global-batch 3", "plan for 'gpt3': interleaving needs the 3 microbatches to be a multiple of pp=2", false},
    {PC, "", PAR "tp=8 --zero 5", "plan for 'gpt3': --zero must be 0, 1, 2 or 3 (got 5)", false},
    {PC, "", PAR "dp=2 --sequence-parallel", "plan for 'gpt3': --sequence-parallel needs tp > 1", false},
    {PC, "", PAR "dp=8000", "plan for 'gpt3': the plan takes 8000 devices, more than the 4480 of system 'dgx-a100'", false},
    {"sim/parallel/sharded_layers.cpp", "", "RIDGE query gpt2 --system dgx-a100 --parallel tp=2",
     "model 'gpt2' has no [params] 'layers', which a parallel plan shards by", false},
    {"sim/parallel/data_parallel.cpp", "", "RIDGE analyze resnet50 --system dgx1-v100 --parallel dp=8 --global-batch 250",
     "--global-batch 250 is not a positive multiple of dp=8", false},
    {"sim/parallel/data_parallel.cpp", "", "RIDGE analyze resnet50 --system dgx1-v100 --parallel dp=16 --global-batch 256",
     "dp=16 needs more devices than dgx1-v100 has (8)", false},
    {PO, "", "RIDGE analyze resnet50 --system dgx1-v100 --parallel tp=2,dp=4 --global-batch 256",
     "--parallel tp=2,dp=4: model 'resnet50' has no [params] layers, hidden, heads, seq and tp to shard, so only data parallelism applies", false},
    {PO, "", "RIDGE analyze resnet50 --system dgx1-v100 --parallel dp=8 --global-batch 256 --microbatch 4",
     "--microbatch does not apply to data parallelism of model 'resnet50'", false},
    {PO, "", "RIDGE analyze gpt3 --system dgx-a100", "--system needs --parallel", false},
    {PO, "", "RIDGE memory gpt3 --zero 1", "--zero applies to a parallel training plan (--parallel)", false},
    {PO, "", PAR "tp=8 --recompute most", "--recompute: unknown policy 'most'", false},
    {PO, "", PAR "tp=8 --global-batch 0", "--global-batch must be a positive number of sequences (got 0)", false},
    {PO, "", PAR "tp=8 --hw a100", "--hw does not go with --parallel", false},
    {PO, "", PAR "tp=8 --set compute.fp32=1TFLOPS", "--set compute.fp32=1TFLOPS: with --parallel only model.NAME=VALUE applies", false},
    {PO, "", PAR "tp=8 --efficiency some", "--efficiency: unknown choice 'some'", false},
    {PO, "", PAR "tp=8 --batch 4", "--batch does not apply to a parallel plan", false},
    {"sim/cli/cmd_plan.cpp", "", PLAN "--gpus 8 --global-batch 8 --shard 3/2", "--shard: '3/2' is not K/N with 1 <= K <= N", false},
    {"sim/cli/cmd_plan.cpp", "", "RIDGE plan", "plan: which model?", false},
    {"sim/cli/cmd_plan.cpp", "", PLAN "--gpus 8 --global-batch 8 --set compute.bf16=1PFLOPS", "plan: --set compute.bf16=1PFLOPS: only model.NAME=VALUE applies", false},
    {"sim/cli/cmd_plan.cpp", "", PLAN "--global-batch 8", "plan: --gpus must be a positive device count", false},
    {"sim/parallel/plan_search.cpp", "", "RIDGE plan mixtral-8x7b --system dgx-h100 --gpus 8 --global-batch 8 --expert-imbalance 0.5",
     "plan: --expert-imbalance must be at least 1, the busiest expert rank's load over the mean (got 0.5)", false},
    {"sim/parallel/plan_search.cpp", "", PLAN "--gpus 8 --global-batch 8 --expert-imbalance 1.5",
     "plan: --expert-imbalance applies to a mixture of experts; model 'gpt3' has no experts", false},
    {"sim/cli/cmd_plan.cpp", "", PLAN "--gpus 8", "plan: --global-batch must be a positive number of sequences", false},
    {"sim/cli/cmd_plan.cpp", "", PLAN "--gpus 8 --global-batch 8 --top 0", "plan: --top must be at least 1", false},
    {"sim/cli/cmd_plan.cpp", "", PLAN "--gpus 8 --global-batch 8 --seq 0", "plan: --seq must be positive (got 0)", false},
    {"sim/cli/cmd_plan.cpp", "", PLAN "--gpus 9000 --global-batch 8", "plan: --gpus 9000 is more than the 4480 devices of system 'dgx-a100'", false},
    {RO, "", AM " --batch 0", "--batch must be a positive integer (got 0)", false},
    {RO, "", AM " --optimizer sgd", "--optimizer applies to training only (this run is inference)", false},
    {RO, "", AM " --dtype fp16 --precision mixed", "--precision mixed applies to training only (this run is inference)", false},
    {RO, "", AM " --weight-dtype int4 --weight-group 100", "--weight-group must be 32, 64 or 128 (got 100)", false},
    {RO, "", AM " --weight-group 64", "--weight-group applies with --weight-dtype", false},
    {RO, "", "RIDGE analyze gpt2 --all-logits", "--all-logits applies to --phase prefill", false},
    {RO, "", AM " --phase serve", "--phase: unknown phase 'serve'", false},
    {RO, "", AM " --dtype fp13", "--dtype: unknown data type 'fp13'", false},
    {RO, "", AM " --seq 8", "--seq applies to --phase prefill", false},
    {RO, "", "RIDGE analyze gpt2 --phase prefill --seq -1", "--seq must be a positive integer (got -1)", false},
    {RO, "", "RIDGE analyze gpt2 --phase decode", "--phase decode needs --context (tokens already in the KV cache)", false},
    {RO, "", "RIDGE memory llama-2-7b --phase decode --context -1", "--context must not be negative (got -1)", false},
    {RO, "", AM " --dtype ''", "--dtype is given an empty value", false},
    {RO, "", AM " --context 8", "--context applies to --phase decode", false},
    {RO, "", AM " --kv-dtype fp8", "--kv-dtype applies to --phase prefill or decode", false},
    {RO, "", "RIDGE analyze gpt2 --phase decode --context 8 --kv-dtype fp4", "--kv-dtype: unknown KV cache type 'fp4'", false},
    {RO, "", AM " --phase training --optimizer lion", "--optimizer: unknown optimizer 'lion'", false},
    {RO, "", AM " --phase training --precision half", "--precision: unknown recipe 'half'", false},
    {RO, "", AM " --phase training --precision mixed", "--precision mixed needs a half-precision --dtype (got fp32)", false},
    {RO, "", AM " --overhead some", "--overhead: unknown choice 'some'", false},
    {RO, "", AM " --weight-dtype int3", "--weight-dtype: unknown weight type 'int3'", false},
    {RO, "", AM " --phase training --weight-dtype int8", "--weight-dtype quantizes weights for inference", false},
    {RO, "", AM " --data-on disk", "--data-on: unknown placement 'disk'", false},
    {RO, "", AM " --set model.", "--set model.: expected model.NAME=VALUE", false},
    {RO, ONNX_RELU, ONNX " --input x=0x3", "--input: expected NAME=DIMxDIMx... of positive sizes (got 'x=0x3')", false, "in.onnx"},
    {RO, "", AM " --hw-model roofline", "--hw-model needs --hw", false},
    {RO, "", AM " --set compute.fp32=1", "--set overrides a hardware descriptor and needs --hw", false},
    {RO, "", AM " --hw v100 --efficiency some", "--efficiency: unknown value 'some'", false},
    {RO, "", AM " --hw v100 --hw a100", "--hw is given 2 times; this command takes one", false},
    {RO, "", AM " --bogus", "unrecognised option '--bogus'", false},
    {RO, "", AM " --btach 4", "unrecognised option '--btach'", false},
    {RO, "", AM " '--se%original_token%'", "holds '%original_token%', which no ridge option takes", false},  // hung in Boost's message
    // sim/base/input_file.cpp
    {"sim/base/input_file.cpp", "name = \"x\"\n", "truncate -s 1G in.toml && RIDGE analyze ./in.toml", "more than the limit of 16 MiB", false},
    {"sim/base/input_file.cpp", "", "mkfifo f && (head -c 17000000 /dev/zero > f &) && RIDGE analyze ./f", "the input is more than the limit of 16 MiB",
     false},
    // plots/sweep_table.cpp: the sweep CSV of plot sweep and its --where
#define PLOT "RIDGE plot sweep in.csv --output o.png"
#define ST "plots/sweep_table.cpp"
#define PLOT_HEAD "hardware,batch,samples_per_s\n"
    {ST, PLOT_HEAD "v100,1\n", PLOT, "in.csv:2: a row of 2 fields under a header of 3", false, "in.csv"},
    {ST, PLOT_HEAD "\"v100,1,2\n", PLOT, "in.csv:2: a quoted field is never closed", false, "in.csv"},
    {ST, "# only a preamble\n", PLOT, "the CSV is empty", false, "in.csv"},
    {ST, "# a preamble line\nhardware,samples_per_s\nv100,1\n", PLOT, "in.csv:2: the CSV has no 'batch' column", false, "in.csv"},
    {ST, "hardware,batch,samples_per_s,status\nv100,1,2,failed\n", PLOT, "the CSV has no rows that ran (status ok)", false, "in.csv"},
    {ST, "", PLOT, "in.csv: cannot read the sweep CSV", false},
    {ST, PLOT_CSV, PLOT " --where hardware", "--where: expected COLUMN=VALUE (got 'hardware')", false, "in.csv"},
    {ST, PLOT_CSV, PLOT " --where hardwear=v100", "--where: the CSV has no column 'hardwear'", false, "in.csv"},
    {ST, PLOT_CSV, PLOT " --where hardware=h100", "--where: no row that ran has hardware=h100", false, "in.csv"},
    {ST, "hardware,dtype,batch,samples_per_s\nv100,fp16,1,10\na100,fp32,1,20\n", PLOT " --where hardware=v100 --where dtype=fp32",
     "--where: no row has all of hardware=v100, dtype=fp32", false, "in.csv"},
    {ST, "# ridge sweep writes preamble lines\n#\n" PLOT_HEAD "v100,x,10\n", PLOT, "in.csv:4:6: column 'batch' is not a number (got 'x')", false, "in.csv"},
    {ST, PLOT_HEAD "v100,0,10\n", PLOT, "in.csv:2:6: column 'batch' must be a positive number up to 1e300 (got '0')", false, "in.csv"},
    {ST, PLOT_HEAD "v100,4.9e-324,10\n", PLOT, "in.csv:2:6: column 'batch' is too close to zero to compute with", false, "in.csv"},
    {ST, "hardware,batch,samples_per_s,memory.HBM2.bandwidth\nv100,1,10,2 TB/s\nv100,1,20,4.9e-324\n", PLOT,
     "in.csv:3:11: column 'memory.HBM2.bandwidth' is too close to zero to compute with", false, "in.csv"},
    {ST, "hardware,batch,samples_per_s,memory.HBM2.bandwidth\nv100,1,10,2 TB/s\nv100,1,20,abc\n", PLOT,
     "in.csv:3:11: cannot read 'abc' in column 'memory.HBM2.bandwidth' as a number or quantity", false, "in.csv"},
    {ST, "hardware,batch,samples_per_s,memory.HBM2.bandwidth\nv100,1,10,2 TB/s\nv100,1,20,1e301\n", PLOT,
     "in.csv:3:11: column 'memory.HBM2.bandwidth' is beyond 1e300 in size (got '1e301')", false, "in.csv"},
    // plots/sweep_figure.cpp and sweep_plot.cpp: what one figure can show
    {"plots/sweep_figure.cpp", "", "{ echo model,hardware,batch,samples_per_s; for i in $(seq 13); do echo m$i,v100,1,10; done; } > in.csv && " PLOT,
     "plot sweep: 13 models are too many panels to read (at most 12)", false},
    {"plots/sweep_figure.cpp", "", "{ echo hardware,batch,samples_per_s; for i in $(seq 13); do echo h$i,1,10; done; } > in.csv && " PLOT,
     "plot sweep: 13 series in one panel are too many to read (at most 12)", false},
    {"plots/sweep_figure.cpp", "", "{ echo hardware,batch,samples_per_s; for i in $(seq 8); do echo h$i,1,10; done; } > in.csv && " PLOT,
     "plot sweep: 8 values of hardware are more colours than can be told apart (at most 7)", false},
    {"plots/sweep_plot.cpp", PLOT_CSV, PLOT " --size 1.5x1.5", "--size is too small for 1 panel", false, "in.csv"},
    // plots/sweep_figure.cpp: the figure's axes as chosen (in.toml holds a sweep CSV here)
    {"plots/sweep_figure.cpp", PLOT_CSV, "RIDGE plot sweep in.toml --x hardware --output o.png",
     "--x hardware: not a column that can be numbers on the x axis", false},
    {"plots/sweep_figure.cpp", PLOT_CSV, "RIDGE plot sweep in.toml --colour dtype --output o.png",
     "--colour dtype: every row drawn has dtype=fp16", false},
    {"plots/sweep_figure.cpp", PLOT_CSV, "RIDGE plot sweep in.toml --y bound --output o.png",
     "--y bound: not a quantity of this CSV", false},
};

// Source files whose input errors this table does not provoke yet, with their number of
// throw sites (none now: every throw site in sim/, hw/ and plots/ has a row). Add one only
// with a reason; a new throw site must come with a row.
// Throw sites without a row: the check that a computed gather's layer agrees with ONNX's
// output size, a consistency check of ridge's own translation that no file found yet
// reaches (every node it sees was checked before it).
// plan_check.cpp: two reasons the command line cannot reach (tp not dividing hidden while
// it divides the heads, which the model reader makes divide hidden; a global batch below
// 1, which --global-batch refuses first); `ridge plan` and sweeps count them.
const std::map<std::string, int> kBacklog = {{"sim/workload/onnx/detection_ops.cpp", 1}, {PC, 2}};

// A row's file as written: an `.onnx` row's text is a ModelProto in protobuf text format.
std::string onnx_binary_if_named(const std::string& name, const std::string& text) {
  if (!name.ends_with(".onnx")) return text;
  onnx::ModelProto model;
  if (!google::protobuf::TextFormat::ParseFromString(text, &model)) ADD_FAILURE() << "bad protobuf text in a row: " << text;
  return model.SerializeAsString();
}

class InputErrorTable : public ridge_test::FolderTest {
 protected:
  // Runs rows [first, last) of `reader`'s rows (tests stay under 2 s each); `hinted`:
  // each error must be followed by a hint line.
  void run_rows(const std::string& reader, int first = 0, int last = 1000, bool hinted = false) {
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
      if (reader.starts_with(ONNX_SOURCES)) {  // an ONNX file has no lines: its errors name the file
        EXPECT_TRUE(std::regex_search(first, std::regex("^error: [^ :]+\\.onnx: "))) << first;
      }
      if (c.located) {
        std::string file = first.substr(0, first.find(':', 7)).substr(std::min<size_t>(7, first.size()));
        EXPECT_TRUE(file == c.name || file == std::string("./") + c.name) << first;
        EXPECT_TRUE(std::regex_search(first, std::regex("^error: [^:]+:[0-9]+:[0-9]+: "))) << first;
      }
      if (std::getline(lines, second)) {
        EXPECT_EQ(second.rfind("hint: ", 0), 0u) << err;
      } else {
        EXPECT_FALSE(hinted) << "no hint after: " << first;
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
TEST_F(InputErrorTable, SweepFileRangesAndLimits) { run_rows("sim/engine/sweep_file.cpp", 12, 37); }
TEST_F(InputErrorTable, ParallelSweepFiles) {
  run_rows("sim/engine/sweep_file.cpp", 37);
  run_rows("sim/parallel/parallel_sweep.cpp");
}
TEST_F(InputErrorTable, Units) { run_rows("sim/base/units.cpp"); }
TEST_F(InputErrorTable, InputFile) { run_rows("sim/base/input_file.cpp"); }
TEST_F(InputErrorTable, ModelParamsAndBlocks) { run_rows(MR, 0, 10); }
TEST_F(InputErrorTable, ModelNamesTiesAndInputs) { run_rows(MR, 10, 19); }
TEST_F(InputErrorTable, ModelShapesAndOps) { run_rows(MR, 19); }
TEST_F(InputErrorTable, DescriptorKeys) { run_rows("hw/descriptor_reader.cpp", 0, 13); }
TEST_F(InputErrorTable, DescriptorTablesAndOverrides) { run_rows("hw/descriptor_reader.cpp", 13); }
TEST_F(InputErrorTable, DevicePowerAndPrice) { run_rows("hw/power_price.cpp"); }
TEST_F(InputErrorTable, MeasuredLayersCsv) { run_rows("sim/engine/measured_layers.cpp"); }
TEST_F(InputErrorTable, MeasurementConditions) { run_rows("sim/engine/measurement_conditions.cpp"); }
TEST_F(InputErrorTable, OnnxFiles) {
  for (const char* file : {"reader.cpp", "initializers.cpp", "node_inputs.cpp"}) run_rows(std::string(ONNX_SOURCES) + file);
}
TEST_F(InputErrorTable, OnnxNodesAndConstants) {
  for (const char* file : {"batch_axis.cpp", "layers.cpp", "constant_folding.cpp", "indexing_ops.cpp"})
    run_rows(std::string(ONNX_SOURCES) + file);
}
TEST_F(InputErrorTable, OnnxConvsPoolsAndResizes) {
  for (const char* file : {"conv_attributes.cpp", "conv_ops.cpp"}) run_rows(std::string(ONNX_SOURCES) + file);
}
TEST_F(InputErrorTable, OnnxOtherOps) {
  for (const char* file : {"elementwise_ops.cpp", "layout_ops.cpp", "matmul_ops.cpp", "normalization_ops.cpp"})
    run_rows(std::string(ONNX_SOURCES) + file);
}
TEST_F(InputErrorTable, OnnxRearrangingAndRecurrentOps) {
  for (const char* file : {"rearrange_ops.cpp", "recurrent_ops.cpp", "sequence_ops.cpp", "loop_ops.cpp"})
    run_rows(std::string(ONNX_SOURCES) + file);
}
TEST_F(InputErrorTable, TomlFields) { run_rows(TF); }
TEST_F(InputErrorTable, ModelOps) {
  for (const char* reader : {"sim/workload/ops/layout.cpp", "sim/workload/ops/normalization.cpp", "sim/workload/ops/moe.cpp"})
    run_rows(reader);
}
TEST_F(InputErrorTable, ModelOpWindowsAndStructure) {
  for (const char* reader : {"sim/workload/ops/pooling.cpp", "sim/workload/ops/spatial.cpp", "sim/workload/ops/structural.cpp",
                             "sim/workload/ops/embedding.cpp"})
    run_rows(reader);
}
TEST_F(InputErrorTable, ImportedLayerTypes) {
  run_rows("sim/workload/ops/conv_transpose.cpp");
  run_rows("sim/workload/ops/resize.cpp");
}
TEST_F(InputErrorTable, IntegerExpressions) { run_rows(IE); }
TEST_F(InputErrorTable, TokenLayerTypes) {
  for (const char* reader : {"sim/workload/ops/activation.cpp", "sim/workload/ops/attention.cpp", "sim/workload/ops/parameter.cpp",
                             "sim/workload/ops/reduction.cpp", "sim/workload/ops/rotary.cpp", "sim/workload/ops/recurrent.cpp"})
    run_rows(reader);
}
TEST_F(InputErrorTable, Catalogs) {
  for (const char* reader : {"sim/workload/model_catalog.cpp", "hw/hardware_catalog.cpp", "hw/model_registry.cpp"}) run_rows(reader);
}
TEST_F(InputErrorTable, Calibration) { run_rows("hw/calibration.cpp"); }
TEST_F(InputErrorTable, ConvAlgorithms) { run_rows("hw/conv_algorithms.cpp"); }
TEST_F(InputErrorTable, PlotOptions) {
  for (const char* reader : {PS, "plots/roofline_plot.cpp", "plots/layers_plot.cpp"}) run_rows(reader);
}
TEST_F(InputErrorTable, EngineChecks) {
  for (const char* reader : {"sim/views/field_table.cpp", "sim/views/output_format.cpp", "sim/engine/calibration_fit.cpp", "sim/engine/calibration_check.cpp",
                             "sim/engine/layer_query.cpp", "sim/engine/result.cpp"})
    run_rows(reader);
}
TEST_F(InputErrorTable, SweepAndPhaseChecks) {
  for (const char* reader : {"sim/engine/sweep_run.cpp", "sim/workload/cost_analysis.cpp", "sim/workload/memory_footprint.cpp",
                             "hw/timing_terms.cpp"})
    run_rows(reader);
}
TEST_F(InputErrorTable, CommandLineRunOptions) { run_rows(RO); }
TEST_F(InputErrorTable, SystemsAndParallelPlans) {
  for (const char* reader : {SR, "sim/parallel/parallel_plan.cpp", "sim/parallel/sharded_layers.cpp",
                             "sim/parallel/data_parallel.cpp", PO,
                             "sim/cli/cmd_plan.cpp"})
    run_rows(reader);
}
TEST_F(InputErrorTable, PlanChecksEachWithAHint) { run_rows(PC, 0, 1000, true); }
TEST_F(InputErrorTable, CommandLineCommands) {
  for (const char* reader : {"sim/cli/run_main.cpp", "sim/cli/analyze_request.cpp", "sim/cli/cmd_compare.cpp", "sim/cli/compare_options.cpp", "sim/cli/cmd_calibrate.cpp", "sim/cli/cmd_generate.cpp",
                             "sim/cli/cmd_import.cpp", "sim/cli/cmd_list.cpp", "sim/cli/cmd_memory.cpp", "sim/cli/cmd_plot.cpp",
                             "sim/cli/cmd_probe.cpp", "sim/cli/cmd_query.cpp", "sim/cli/cmd_sweep.cpp"})
    run_rows(reader);
}
TEST_F(InputErrorTable, CommandLinePlots) {
  for (const char* reader : {"sim/cli/plot_compare.cpp", "plots/compare_plot.cpp", "sim/cli/plot_layers.cpp", "sim/cli/plot_options.cpp",
                             "sim/cli/plot_roofline.cpp", "sim/cli/plot_sweep.cpp"})
    run_rows(reader);
}
TEST_F(InputErrorTable, SweepCsv) { run_rows(ST); }
TEST_F(InputErrorTable, SweepPlotChoices) {
  run_rows("plots/sweep_figure.cpp");
  run_rows("plots/sweep_plot.cpp");
}

// Lines of `source` that raise an input error: `throw InputError(` or a `fail(` call
// (TomlFields::fail, or a reader's local `fail`). A definition of `fail` is not a site,
// nor is its body (to the line that closes it), which every row of its reader reaches.
// plan_check.cpp raises every reason a plan cannot run through its one throw: there
// each `return problem(` is a site, so each reason has a row.
int throw_sites(const std::string& source) {
  std::string text = ridge_test::slurp(std::filesystem::path(RIDGE_SOURCE_DIR) / source);
  std::istringstream lines(text);
  static const std::regex site(R"(throw InputError\(|(^|[^A-Za-z_])fail\()");
  static const std::regex reason(R"(return problem\()");
  if (source == PC) {
    int n = 0;
    for (std::string line; std::getline(lines, line);) n += std::regex_search(line, reason) ? 1 : 0;
    return n;
  }
  static const std::regex definition(R"(void TomlFields::fail|\[\[noreturn\]\] void fail)");
  static const std::regex closing(R"(^\s*\}\s*$)");
  int n = 0;
  bool in_definition = false;
  for (std::string line; std::getline(lines, line);) {
    if (in_definition) {
      in_definition = !std::regex_search(line, closing);
      continue;
    }
    if (std::regex_search(line, definition)) in_definition = line.find('{') != std::string::npos && line.back() != '}';
    else if (std::regex_search(line, site)) ++n;
  }
  return n;
}

TEST(InputErrorCoverage, EveryThrowSiteHasARowOrIsInTheBacklog) {
  std::map<std::string, int> rows;
  for (const Case& c : kCases) ++rows[c.reader];
  std::map<std::string, int> sites;  // every source file that raises an input error
  const std::filesystem::path root(RIDGE_SOURCE_DIR);
  for (const char* dir : {"sim", "hw", "plots"})
    for (const auto& e : std::filesystem::recursive_directory_iterator(root / dir))
      if (e.path().extension() == ".cpp")
        if (int n = throw_sites(e.path().lexically_relative(root).string())) sites[e.path().lexically_relative(root).string()] = n;
  EXPECT_GT(sites.size(), 40u);  // the scan found the sources
  std::map<std::string, int> expected = kBacklog;
  for (const auto& [reader, n] : rows) expected[reader] += n;
  for (const auto& [file, n] : sites) expected.try_emplace(file, 0);
  for (const auto& [reader, n] : expected) {
    int found = sites.count(reader) ? sites.at(reader) : 0;
    EXPECT_EQ(found, n) << reader << " has " << found << " input-error throw sites; the table has " << rows[reader]
                        << " rows for it and the backlog " << (kBacklog.count(reader) ? kBacklog.at(reader) : 0)
                        << ": a new throw needs a row in kCases (or, if you removed one, lower the backlog)";
  }
}

}  // namespace
