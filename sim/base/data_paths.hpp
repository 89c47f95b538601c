// Where ridge finds its shipped data (models/, configs/) from any working directory:
// $RIDGE_DATA_DIR if set, else PREFIX/share/ridge for an installed PREFIX/bin/ridge
// (cmake --install), else the folder above the executable when it holds models/ and
// configs/ (a build folder in the source tree), else the source tree the binary was
// built from.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ridge {

std::filesystem::path data_root();

// Stems of the *.toml files in `dir`, sorted: the shipped names (models, hardware).
std::vector<std::string> toml_stems(const std::filesystem::path& dir);

// Whether a MODEL / HW argument names a file rather than a shipped name: it holds a
// '/' or ends in .toml or .onnx.
bool names_a_file(const std::string& arg);
// Whether something is at `path`: a file, or a name whose status cannot be read (a loop of
// symbolic links), which reading then reports as unreadable rather than absent.
bool path_present(const std::string& path);
// Whether a shipped file (zoo model, hardware descriptor) is at `path`; false also where
// the name cannot be looked up at all (longer than the file system allows).
bool shipped_file_exists(const std::filesystem::path& path);

}  // namespace ridge
