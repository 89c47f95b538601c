// Plot styling (see plot_style.hpp).
#include "plots/plot_style.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "sim/base/error.hpp"

namespace ridge::plots {

double PlotStyle::text_width_in(const std::string& text) const {
  double w = 0;
  for (unsigned char c : text) {
    if ((c & 0xC0) == 0x80) continue;  // UTF-8 continuation byte: same character
    // Narrow glyphs count less, capitals and wide glyphs more (DejaVu-like metrics).
    if (std::strchr("il.,:;'|!()[] ", c)) w += 0.55;
    else if (std::isupper(c) || c == 'm' || c == 'w' || c == '%') w += 1.2;
    else w += 1.0;
  }
  return w * char_in();
}

double PlotStyle::max_height_in() const {
  if (preset == "column") return 4.5;
  if (preset == "page") return 6.5;
  if (preset == "slides") return height_in;
  // A .tex figure without a preset fits an article's text (9 in tall) with its caption.
  return format == ImageFormat::tex ? 6.5 : 0;
}

std::string PlotStyle::series_colour(size_t i) const {
  return grayscale ? kGrays[i % kGrays.size()] : kOkabeIto[i % kOkabeIto.size()];
}

ImageFormat format_of_output(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".png") return ImageFormat::png;
  if (ext == ".svg") return ImageFormat::svg;
  if (ext == ".pdf") return ImageFormat::pdf;
  if (ext == ".tex") return ImageFormat::tex;
  throw InputError({}, "--output: cannot tell the image format of '" + path + "'",
                   "end the file name in .png, .svg, .pdf or .tex (LaTeX + PDF graphics)");
}

std::string extension_of(ImageFormat f) {
  switch (f) {
    case ImageFormat::png: return ".png";
    case ImageFormat::svg: return ".svg";
    case ImageFormat::pdf: return ".pdf";
    case ImageFormat::tex: return ".tex";
  }
  return "";
}

namespace {

// One side of --size: a positive number and an optional unit; returns inches.
double parse_length(const std::string& side, const PlotStyle& style, const std::string& whole) {
  const char* begin = side.c_str();
  char* end = nullptr;
  double v = std::strtod(begin, &end);
  std::string unit(end);
  if (end == begin || !std::isfinite(v) || v <= 0 || !(unit.empty() || unit == "in" || unit == "cm" || unit == "px"))
    throw InputError({}, "--size: cannot read '" + whole + "'", "write WxH in inches (6x4.2), 15cmx10cm, or for PNG 1200x800px");
  if (unit == "px" && style.format != ImageFormat::png)
    throw InputError({}, "--size: pixels are for PNG output (got '" + whole + "')", "give vector formats inches: 6x4.2");
  double inches = unit == "cm" ? v / 2.54 : unit == "px" ? v / style.dpi : v;
  if (inches < 1.5 || inches > 40)
    throw InputError({}, "--size: " + side + " is outside 1.5 to 40 inches",
                     "a journal column is about 3.3 in wide, a page about 7 in (or --style column, --style page)");
  return inches;
}

}  // namespace

void apply_size(PlotStyle& style, const std::string& text) {
  auto x = text.find_first_of("xX");
  if (x == std::string::npos)
    throw InputError({}, "--size: cannot read '" + text + "'", "write WxH, e.g. 6x4.2 or 1200x800px");
  std::string w = text.substr(0, x), h = text.substr(x + 1);
  // One unit after both sides ("1200x800px") counts for both.
  auto unit_of = [](const std::string& side) { return side.substr(side.find_last_of("0123456789.") + 1); };
  if (unit_of(w).empty() && !h.empty()) w += unit_of(h);
  style.width_in = parse_length(w, style, text);
  style.height_in = parse_length(h, style, text);
}

PlotStyle make_style(const std::string& output, const StyleOptions& o) {
  PlotStyle s;
  s.format = format_of_output(output);
  if (o.dpi) {
    if (!(*o.dpi >= 50 && *o.dpi <= 1200)) throw InputError({}, "--dpi must be between 50 and 1200 (got " + gp_number(*o.dpi) + ")");
    if (s.format != ImageFormat::png)
      throw InputError({}, "--dpi is for PNG output", "vector formats (svg, pdf, tex) take --size in inches");
    s.dpi = *o.dpi;
  }
  // Presets: a two-column paper's \columnwidth (IEEEtran 3.5 in, ACM 3.33 in) and its
  // \textwidth (IEEEtran 7.16 in) at 9 pt (one step under IEEEtran's 10-pt body, \small;
  // ACM's body size), and a 16:9 slide. "paper" and "paper-wide"
  // are the older names of column and page.
  if (o.preset == "column" || o.preset == "paper") {
    s.width_in = 3.3, s.height_in = 2.6, s.font_size = 9, s.preset = "column";
  } else if (o.preset == "page" || o.preset == "paper-wide") {
    s.width_in = 7, s.height_in = 3.2, s.font_size = 9, s.preset = "page";
  } else if (o.preset == "slides") {
    s.width_in = 10, s.height_in = 5.6, s.font_size = 16, s.preset = "slides";
  } else if (!o.preset.empty()) {
    throw InputError({}, "--style: unknown style (got '" + o.preset + "')", "use column, page or slides");
  } else if (s.format == ImageFormat::tex) {
    // A .tex figure without a size fits \textwidth of a plain article (4.78 in).
    s.width_in = 4.7, s.height_in = 3.4;
  }
  s.size_given = !o.preset.empty();
  if (!o.size.empty()) {
    apply_size(s, o.size);
    s.size_given = true;
    s.height_given = true;
  }
  s.grayscale = o.grayscale;
  s.title = !o.no_title;
  if (!o.font.empty()) {
    for (char c : o.font)
      if (std::iscntrl(static_cast<unsigned char>(c)) || c == ',')
        throw InputError({}, "--font: a font name has no ',' or control characters (got '" + o.font + "')",
                         "give the size with --font-size");
    s.font = o.font;
  }
  if (o.font_size) {
    if (!(*o.font_size >= 4 && *o.font_size <= 72))
      throw InputError({}, "--font-size must be between 4 and 72 points (got " + gp_number(*o.font_size) + ")");
    s.font_size = *o.font_size;
  }
  return s;
}

std::string too_small_message(const PlotStyle& style, const std::string& what) {
  return style.height_given ? "--size is too small for " + what
                            : "the figure is too small for " + what + " at " + gp_number(style.font_size) + " pt";
}

std::string gnuplot_output_name(const PlotStyle& style, const std::string& stem) {
  return style.format == ImageFormat::tex ? stem + "-graphics.tex" : stem + extension_of(style.format);
}

std::string script_preamble(const PlotStyle& style, const std::string& image_name) {
  std::ostringstream g;
  // The font name is user text too: it goes in single quotes like every other string.
  std::string font = gp_string(style.font + "," + gp_number(style.font_size), TextMarkup::plain);
  g << "# ---- output: terminal, size, font (edit here to restyle) ----\n";
  // What the terminal draws for a point of size 1 and a line of width 1, in inches
  // (measured with gnuplot 5.4: pngcairo 6 px and 1 px at any font; svg 0.75 x the font
  // size and 1 of its units, here 1/72 in; pdfcairo 6 pt and 0.5 pt, cairolatex 6 pt
  // and 0.25 pt).
  double point_in = 6 / 72.0, line_in = 0.5 / 72;
  switch (style.format) {
    case ImageFormat::png:
      // pngcairo sets a point as a pixel at 96 dpi: scaled by dpi / 96, text and lines keep
      // their size in inches at any resolution.
      g << "# PNG at " << gp_number(style.dpi) << " dpi: pixels = inches x " << gp_number(style.dpi) << "; fonts scaled to match\n";
      point_in = 6 / style.dpi, line_in = 1 / style.dpi;
      g << "set terminal pngcairo size " << std::lround(style.width_in * style.dpi) << ","
        << std::lround(style.height_in * style.dpi) << " font " << font << " fontscale " << gp_number(style.dpi / 96.0)
        << " linewidth " << gp_number(kLineInPerWidth / line_in) << " noenhanced\n";
      break;
    case ImageFormat::svg:
      point_in = 0.75 * style.font_size / 72.0, line_in = 1 / 72.0;
      g << "set terminal svg size " << std::lround(style.width_in * 72) << "," << std::lround(style.height_in * 72)
        << " font " << font << " linewidth " << gp_number(kLineInPerWidth / line_in) << " noenhanced\n";
      // The svg terminal sets tick labels about half a line lower than the cairo ones,
      // onto the axis title placed below them: lift them back.
      g << "set xtics offset 0,0.5\n";
      break;
    case ImageFormat::pdf:
      // pdfcairo's default fontscale, 0.5, sets a 10-pt font at 6.7 pt: 0.75 sets it at 10.
      g << "set terminal pdfcairo size " << gp_number(style.width_in) << "in," << gp_number(style.height_in) << "in font "
        << font << " fontscale 0.75 linewidth " << gp_number(kLineInPerWidth / line_in) << " noenhanced\n";
      break;
    case ImageFormat::tex:
      // No font family: the text is set in the document's own font, at the style's size.
      g << "# LaTeX: the text goes to the .tex file (typeset in the document's font), the\n"
           "# graphics to the -graphics.pdf beside it. ridge keeps the .tex under the name given\n"
           "# to --output; run by hand, this script writes it as " << image_name << ".\n"
           "# \\input the .tex file from the paper (with \\usepackage{graphicx,color}).\n";
      // colortext: labels keep their series' colour (the default, blacktext, drops it).
      line_in = 0.25 / 72;
      g << "set terminal cairolatex pdf colortext linewidth " << gp_number(kLineInPerWidth / line_in) << " size "
        << gp_number(style.width_in) << "in," << gp_number(style.height_in) << "in font " << gp_string("," + gp_number(style.font_size), TextMarkup::plain)
        // LaTeX sets the text at the document's size unless told: at the size the labels were placed for.
        << " header " << gp_string("\\fontsize{" + gp_number(style.font_size) + "}{" + gp_number(style.font_size * 1.2) + "}\\selectfont",
                                   TextMarkup::plain)
        << "\n";
      break;
  }
  g << "set output " << gp_string(image_name, TextMarkup::plain) << "\n";
  g << "# a point of size 1 is " << gp_number(std::round(point_in * 1000) / 1000) << " in here; scaled to "
    << gp_number(kMarkerInPerSize) << " in, as in every format\nmarker = " << gp_number(kMarkerInPerSize / point_in)
    << "\n\n";
  if (style.grayscale)
    g << "# ---- colours: grays (--grayscale), one per series; dashes and markers tell them apart ----\n";
  else
    g << "# ---- colours: the " << kPaletteName << " palette (colour-blind safe), one per series ----\n";
  for (size_t i = 0; i < kOkabeIto.size(); ++i)
    g << "set linetype " << i + 1 << " linecolor rgb '" << style.series_colour(i) << "' linewidth 1.5 pointtype " << (i % 7) + 5
      << " dashtype solid\n";
  g << "set linetype cycle " << kOkabeIto.size() << "\n\n";
  g << "# ---- frame ----\n"
       "set border linewidth 1 linecolor rgb '#333333'\n"
       "set tics nomirror out scale 0.6 textcolor rgb '#222222'\n"
       "set grid xtics ytics mxtics mytics linecolor rgb '#E4E4E4' linewidth 0.6, linecolor rgb '#F2F2F2' linewidth 0.4\n"
       "set key noenhanced\n";
  return g.str();
}

std::string axis_titles(const PlotStyle& style, const Frame& frame, const std::string& x_title, const std::string& y_title) {
  const Box a = frame.plot_area();
  const double line = style.line_in();
  std::ostringstream g;
  g << "# Axis titles\n";
  g << "set label 1101 " << gp_string(x_title, style.markup()) << " at screen " << gp_number((a.x0 + a.x1) / 2 / frame.width_in)
    << ", screen " << gp_number((0.1 + line * 0.5) / frame.height_in) << " center\n";
  if (!y_title.empty())
    g << "set label 1102 " << gp_string(y_title, style.markup()) << " at screen " << gp_number((0.08 + line * 0.5) / frame.width_in)
    << ", screen " << gp_number((a.y0 + a.y1) / 2 / frame.height_in) << " center rotate by 90\n";
  return g.str();
}

std::vector<std::string> wrap_phrases(const PlotStyle& style, const std::vector<std::string>& phrases, double width_in) {
  std::vector<std::string> lines{""};
  auto add = [&](const std::string& piece) {
    std::string joined = lines.back().empty() ? piece : lines.back() + " " + piece;
    if (!lines.back().empty() && style.text_width_in(joined) > width_in)
      lines.push_back(piece);
    else
      lines.back() = joined;
  };
  for (const std::string& phrase : phrases) {
    if (style.text_width_in(phrase) <= width_in) {
      add(phrase);
      continue;
    }
    std::istringstream words(phrase);  // too wide alone: break it at its spaces
    for (std::string w; words >> w;) add(w);
  }
  return lines;
}

HeaderBand header_band(const PlotStyle& style, const std::vector<std::string>& title_phrases,
                       const std::vector<std::string>& key_texts) {
  const double line = style.line_in();
  double entry_w = 0;
  // gnuplot sizes key columns by its own, wider, estimate of the text: count generously
  // so that it lays the key out in the rows reserved for it here.
  for (const std::string& s : key_texts) entry_w = std::max(entry_w, style.text_width_in(s) * 1.25 + 0.8);
  size_t cols = std::max<size_t>(1, std::min(key_texts.size(), static_cast<size_t>((style.width_in - 0.3) / entry_w)));
  size_t rows = key_texts.empty() ? 0 : (key_texts.size() + cols - 1) / cols;
  // The title (set 1.1 times larger), wrapped between phrases into lines that fit the figure's width.
  std::vector<std::string> lines =
      style.title ? wrap_phrases(style, title_phrases, (style.width_in - 0.3) / 1.1) : std::vector<std::string>{};
  const double title_line = line * 1.1;
  double key_top = 0.1 + title_line * static_cast<double>(lines.size()) + 0.3 * line;
  HeaderBand band;
  // gnuplot sets its key's rows apart by a terminal's own measure of a line: measured
  // with gnuplot 5.4 on a five-row key, 0.97 of one at pngcairo, 1.16 at svg, 0.87 at
  // pdfcairo and 0.8 at cairolatex. A little more is reserved, no more: a fixed 1.15
  // left a 0.25 in empty band under a roofline overlay's key.
  const double row = style.format == ImageFormat::svg   ? 1.18
                     : style.format == ImageFormat::png ? 1.0
                     : style.format == ImageFormat::pdf ? 0.9
                                                        : 0.84;
  band.top_in = key_top + static_cast<double>(rows) * line * row + 0.1;
  std::ostringstream g;
  g << "# Title and key in a band above the plot\n";
  for (size_t i = 0; i < lines.size(); ++i)
    g << "set label " << 1000 + i << " " << gp_string(lines[i], style.markup(), style.font_size * 1.1) << " at screen 0.5, screen "
      << gp_number(1 - (0.1 + title_line * (static_cast<double>(i) + 0.6)) / style.height_in) << " center font ',"
      << gp_number(style.font_size * 1.1) << "'\n";
  // Rows fixed, filled column by column: gnuplot's svg terminal, asked for columns
  // (`horizontal maxcols`), estimated the text too wide and stacked every entry in one
  // column over the plot.
  // Centred; where gnuplot's estimate of the widest entry is wider than the figure (a
  // journal column's key), from the left edge, as gnuplot would centre it past both edges
  // and cut off the samples.
  const bool wide = entry_w > style.width_in - 0.3;
  g << "set key vertical maxrows " << std::max<size_t>(rows, 1) << " Left reverse samplen 1.2 width 1 at screen "
    << (wide ? gp_number(0.08 / style.width_in) : "0.5") << ", screen " << gp_number(1 - key_top / style.height_in)
    << (wide ? " left top\n" : " center top\n");
  band.script = g.str();
  return band;
}

PlotBundle make_bundle(const PlotStyle& style, const std::string& stem, std::string script, std::string data) {
  PlotBundle b;
  b.files.push_back({stem + ".gp", std::move(script)});
  b.files.push_back({stem + ".dat", std::move(data)});
  const std::string made = gnuplot_output_name(style, stem);
  b.images.push_back({made, stem + extension_of(style.format)});
  if (style.format == ImageFormat::tex) b.images.push_back({stem + "-graphics.pdf", stem + "-graphics.pdf"});
  return b;
}

}  // namespace ridge::plots
