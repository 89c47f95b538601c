// Folds the repeated stretches of a flat layer table (what ONNX import makes) into
// `repeat` blocks, so that `ridge import` writes resnet's bottleneck stages or BERT's
// encoder layers once each. Layers are grouped by their names: "layer1.1.conv1" is
// layer "conv1" of instance 1 of "layer1". Consecutive instances fold into one block
// (`name = "layer1"`, `first = 1`, `repeat = 2`) when their bodies are the same layer
// for layer: same ops and attributes, inputs inside the instance by the same local
// names, and the instance's outside input the layer just before it (`@input`, the
// previous instance's output). The block expands to the same layers under the same
// names; a layer named like its instance ("layer1.1", the residual add) is renamed
// "layer1.1.<op>", and references to it follow.
#pragma once

#include <toml++/toml.h>

namespace ridge {

// The `layer` array of a model table with its repeats folded into blocks.
toml::array fold_repeats(const toml::array& layers);

}  // namespace ridge
