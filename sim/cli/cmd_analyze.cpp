// `ridge analyze MODEL`: per-layer costs (and, with --hw, timings) as a table, CSV,
// Markdown, LaTeX or JSON; with --parallel or --system, a training plan on many devices.
#include "sim/base/output_file.hpp"
#include "sim/cli/analyze_request.hpp"
#include "sim/cli/commands.hpp"
#include "sim/views/analyze_report.hpp"

namespace ridge::cli {

int run_analyze(const Args& args) {
  AnalyzeRequest r;
  if (!AnalyzeParser().parse(args, r)) return 0;
  if (wants_parallel(r.par)) return write_parallel_plan(r.model_arg, r.par, r.hw, r.run, r.out, r.given);  // many devices
  refuse_plan_options(r.given);
  RunSettings settings = to_run_settings(r.run);
  OutputFormat format = to_output_format(r.out, analyze_formats());
  ColumnChoice columns = parse_column_choice(r.out.columns);
  RunResult result = analyze_run(r, settings, file_loaders());
  write_output(r.out.output, [&](std::ostream& os) { write_analyze(result, format, columns, os, r.out.csv); });
  return 0;
}

}  // namespace ridge::cli
