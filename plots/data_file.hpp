// A gnuplot data file of several blocks (gnuplot's `index N`), each opened by a
// comment saying what it holds, so an author can read the numbers and re-plot them.
#pragma once

#include <sstream>
#include <string>

namespace ridge::plots {

class DataFile {
 public:
  // Starts block number `index()` (0, 1, ...) with `# [index N] what` comment lines.
  int begin_block(const std::string& what);
  std::ostringstream& out() { return out_; }
  // A free comment line (before the first block: the file's header).
  void comment(const std::string& line);
  // The file; an empty block holds one row of NaN so that gnuplot still counts it.
  std::string str() const;
  int blocks() const { return blocks_; }

 private:
  std::ostringstream out_;
  int blocks_ = 0;
};

}  // namespace ridge::plots
