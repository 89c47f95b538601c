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

// An image gnuplot writes (`made`) and the name it is kept under beside the output
// (`kept`): the LaTeX text "fig-graphics.tex" is kept as "fig.tex", the name the user
// gave, while its graphics keep "fig-graphics.pdf", so no file the user did not name
// ("fig.pdf") is overwritten.
struct ImageFile {
  std::string made, kept;
};

// What one plot writes: the script (first) and its data files. The script refers to
// every file by its bare name and writes the `images` (bare names too).
struct PlotBundle {
  std::vector<PlotFile> files;      // files[0] is the .gp script
  std::vector<ImageFile> images;    // "fig.png"; "fig-graphics.tex" (kept as "fig.tex") + "fig-graphics.pdf"
  std::vector<std::string> notes;   // for the user, one line each ("labelled 5 of the 8 heaviest points ...")
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
