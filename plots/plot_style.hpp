// How a plot looks: image format (from the output file's extension), size, font and
// the colour-blind-safe palette every ridge plot uses. The generated .gp script
// writes all of it out readably at its top, so an author restyles a figure there.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "plots/gnuplot_runner.hpp"
#include "plots/gnuplot_text.hpp"
#include "plots/label_layout.hpp"

namespace ridge::plots {

enum class ImageFormat { png, svg, pdf, tex };

// Okabe & Ito (2008), "Color Universal Design": eight colours told apart under the
// common colour-vision deficiencies. Black is kept for text and axes; series use
// the other seven, in this order.
inline constexpr std::array<const char*, 7> kOkabeIto = {
    "#0072B2",  // blue
    "#D55E00",  // vermillion
    "#009E73",  // bluish green
    "#CC79A7",  // reddish purple
    "#E69F00",  // orange
    "#56B4E9",  // sky blue
    "#F0E442",  // yellow
};
inline constexpr const char* kPaletteName = "Okabe-Ito";
// --grayscale: series from black to light gray, in the palette's order.
inline constexpr std::array<const char*, 7> kGrays = {"#000000", "#555555", "#888888", "#333333", "#AAAAAA", "#666666", "#999999"};

// Every format draws a point of gnuplot size 1 this wide, and a line of width 1 this
// thick (0.75 pt), and sets text at its size in points: the terminals' own scales differ
// (a size-1 point is 6 px in pngcairo, 6 pt in pdfcairo, 0.75 x the font size in svg;
// pdfcairo sets fonts at 2/3 of their size by default), so each is scaled to these
// (script_preamble).
inline constexpr double kMarkerInPerSize = 0.056;
inline constexpr double kLineInPerWidth = 0.75 / 72;

struct PlotStyle {
  ImageFormat format = ImageFormat::png;
  double width_in = 6.0;   // the figure's size in inches (a PNG has width_in x dpi pixels)
  double height_in = 4.2;
  double dpi = 150;        // PNG only: pixels per inch
  std::string font = "Sans";
  double font_size = 10;   // points
  bool size_given = false;  // --size or --style was given: a plot keeps to it instead of growing with its content
  bool height_given = false;  // --size was given; a --style preset fixes the width, and its height is a start
  bool grayscale = false;     // --grayscale: series in grays (told apart by dashes and markers), no colour
  bool title = true;          // --no-title: no title above the plot (a paper's caption names the figure)
  std::string preset;         // --style, by its canonical name: "column", "page", "slides"; empty for none

  // The tallest a figure that grows with its content (bars, panels) may be: a preset's
  // share of a page (column 4.5 in, page 6.5 in, a slide its height), 6.5 in for a .tex
  // without one (an article's text is 9 in tall); 0, no limit, for a screen. A figure's content adapts to it (fewer bars, grouped into "other").
  double max_height_in() const;

  TextMarkup markup() const { return format == ImageFormat::tex ? TextMarkup::latex : TextMarkup::plain; }
  // Series i's colour: the palette's, or a gray with --grayscale.
  std::string series_colour(size_t i) const;
  // The line height and a conservative average character width of the font, in inches.
  double line_in() const { return font_size * 1.25 / 72.0; }
  double char_in() const { return font_size * 0.56 / 72.0; }
  // Estimated width of `text` as typeset, in inches.
  double text_width_in(const std::string& text) const;
};

// The format named by the output file's extension (.png .svg .pdf .tex); anything
// else is an InputError.
ImageFormat format_of_output(const std::string& path);
std::string extension_of(ImageFormat f);

// "--size WxH": inches ("6x4.2", "6inx4.2in"), "15cmx10cm", or for PNG pixels at the
// style's dpi ("1200x800px"). Bad values are InputErrors naming the option.
void apply_size(PlotStyle& style, const std::string& text);

// The command line's figure options; empty / zero: not given.
struct StyleOptions {
  // --style: "column" (3.3 in, 9 pt; alias "paper"), "page" (7 in, 9 pt; alias "paper-wide"),
  // "slides" (10 x 5.6 in, 16 pt)
  std::string preset;
  std::string size;    // --size, over the preset's
  double dpi = 0;      // --dpi
  std::string font;
  double font_size = 0;  // --font-size, over the preset's
  bool grayscale = false;
  bool no_title = false;
};
PlotStyle make_style(const std::string& output, const StyleOptions& options);

// "--size is too small for WHAT" when the user gave --size; else "the figure is too small
// for WHAT at 9 pt" (a preset or the default: the error never blames an option not given).
std::string too_small_message(const PlotStyle& style, const std::string& what);

// The file name the script tells gnuplot to write for `stem`: "fig.png"; for LaTeX
// "fig-graphics.tex", whose graphics gnuplot names "fig-graphics.pdf" (the bundle
// keeps the .tex as "fig.tex").
std::string gnuplot_output_name(const PlotStyle& style, const std::string& stem);

// The script's preamble: terminal, output file (`image_name`, in the script's own
// folder), font, the palette as `set linetype 1..7` and shared styling (noenhanced
// text, light grid, border). Every line is plain gnuplot for an author to edit.
std::string script_preamble(const PlotStyle& style, const std::string& image_name);

// The band above the plot area: the title (a label at a fixed place, so it never
// moves into the key) and under it a horizontal key in as many columns as fit.
struct HeaderBand {
  double top_in = 0;       // the margin above the plot area it needs
  std::string script;      // `set label` for the title and `set key ...`
};
// The title is given as phrases ("bert-base on V100:", "batch 1,", "step 2.79 ms"): a
// line breaks only between phrases, never inside one (a phrase wider than a line
// alone breaks at its spaces).
HeaderBand header_band(const PlotStyle& style, const std::vector<std::string>& title_phrases,
                       const std::vector<std::string>& key_texts);

// The axis titles as labels at fixed places: centred under the plot area and, turned,
// left of it (gnuplot's own xlabel goes missing from SVG when the margins are fixed).
std::string axis_titles(const PlotStyle& style, const Frame& frame, const std::string& x_title, const std::string& y_title);

// Phrases joined by spaces into lines no wider than `width_in` (estimated), breaking
// only between phrases unless one alone is too wide.
std::vector<std::string> wrap_phrases(const PlotStyle& style, const std::vector<std::string>& phrases, double width_in);

// The bundle of a one-script, one-data-file plot: STEM.gp, STEM.dat, and the images
// the style's format makes (STEM.tex with its graphics STEM-graphics.pdf).
PlotBundle make_bundle(const PlotStyle& style, const std::string& stem, std::string script, std::string data);

}  // namespace ridge::plots
