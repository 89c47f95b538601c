// Rendering a plot: its gnuplot script and data files are written to a fresh
// temporary folder beside the output, gnuplot runs there (no shell: fork + execvp of
// "gnuplot SCRIPT.gp" with that folder as its working directory), and only when it
// succeeded are the image, script and data renamed into place. A failure leaves none
// of them behind.
#pragma once

#include <string>
#include <vector>

namespace ridge::plots {

struct PlotFile {
  std::string name;     // file name (no folder) beside the image: "fig.gp", "fig.dat"
  std::string content;
};

// What one plot writes: the script (first) and its data files. The script refers to
// every file by its bare name and writes `images` (bare names too).
struct PlotBundle {
  std::vector<PlotFile> files;       // files[0] is the .gp script
  std::vector<std::string> images;   // files gnuplot must produce: "fig.png"; "fig.tex" + "fig.pdf"
};

// Runs gnuplot on the bundle and moves every file into `folder` ("" = the current
// folder). Throws RunError when gnuplot is not on PATH (with an install hint), fails
// (with its stderr), produces no image, or a file cannot be written.
void render_bundle(const PlotBundle& bundle, const std::string& folder, const std::string& program = "gnuplot");

// Output of one run of `argv` in `cwd` without a shell: exit status and stderr.
struct ProcessResult {
  bool started = false;  // false: execvp failed (errno in `exec_errno`)
  int exec_errno = 0;
  int status = -1;       // exit status, or 128 + signal
  std::string stderr_text;
};
ProcessResult run_process(const std::vector<std::string>& argv, const std::string& cwd);

}  // namespace ridge::plots
