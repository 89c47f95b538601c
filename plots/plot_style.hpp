// How a plot looks: image format (from the output file's extension), size, font and
// the colour-blind-safe palette every ridge plot uses. The generated .gp script
// writes all of it out readably at its top, so an author restyles a figure there.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "plots/gnuplot_runner.hpp"
#include "plots/gnuplot_text.hpp"

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

struct PlotStyle {
  ImageFormat format = ImageFormat::png;
  double width_in = 6.0;   // the figure's size in inches (a PNG is rendered at kPngDpi)
  double height_in = 4.2;
  std::string font = "Sans";
  double font_size = 10;   // points
  bool size_given = false;  // --size was given: a plot keeps to it instead of growing with its panels

  TextMarkup markup() const { return format == ImageFormat::tex ? TextMarkup::latex : TextMarkup::plain; }
  // The line height and a conservative average character width of the font, in inches.
  double line_in() const { return font_size * 1.25 / 72.0; }
  double char_in() const { return font_size * 0.56 / 72.0; }
  // Estimated width of `text` as typeset, in inches.
  double text_width_in(const std::string& text) const;
};

inline constexpr double kPngDpi = 150;

// The format named by the output file's extension (.png .svg .pdf .tex); anything
// else is an InputError.
ImageFormat format_of_output(const std::string& path);
std::string extension_of(ImageFormat f);

// "--size WxH": "6x4" (inches; pixels for PNG), "6inx4in", "15cmx10cm", "1200x800px".
// Bad values are InputErrors naming the option.
void apply_size(PlotStyle& style, const std::string& text);

// Builds the style from the command-line values (size and font may be empty/zero).
PlotStyle make_style(const std::string& output, const std::string& size, const std::string& font,
                     double font_size);

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

// Phrases joined by spaces into lines no wider than `width_in` (estimated), breaking
// only between phrases unless one alone is too wide.
std::vector<std::string> wrap_phrases(const PlotStyle& style, const std::vector<std::string>& phrases, double width_in);

// The bundle of a one-script, one-data-file plot: STEM.gp, STEM.dat, and the images
// the style's format makes (STEM.tex also makes STEM.pdf).
PlotBundle make_bundle(const PlotStyle& style, const std::string& stem, std::string script, std::string data);

}  // namespace ridge::plots
