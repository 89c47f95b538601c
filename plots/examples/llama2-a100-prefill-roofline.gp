# ridge roofline plot. Regenerate the image: run gnuplot THIS.gp in this folder.
# The numbers are in the .dat file beside it; every name is read from there.

# ---- output: terminal, size, font (edit here to restyle) ----
# PNG at 150 dpi: pixels = inches x 150; fonts scaled to match
set terminal pngcairo size 900,630 font 'Sans,10' fontscale 1.5625 linewidth 1.5625 noenhanced
set output 'llama2-a100-prefill-roofline.png'

# ---- colours: the Okabe-Ito palette (colour-blind safe), one per series ----
set linetype 1 linecolor rgb '#0072B2' linewidth 1.5 pointtype 5 dashtype solid
set linetype 2 linecolor rgb '#D55E00' linewidth 1.5 pointtype 6 dashtype solid
set linetype 3 linecolor rgb '#009E73' linewidth 1.5 pointtype 7 dashtype solid
set linetype 4 linecolor rgb '#CC79A7' linewidth 1.5 pointtype 8 dashtype solid
set linetype 5 linecolor rgb '#E69F00' linewidth 1.5 pointtype 9 dashtype solid
set linetype 6 linecolor rgb '#56B4E9' linewidth 1.5 pointtype 10 dashtype solid
set linetype 7 linecolor rgb '#F0E442' linewidth 1.5 pointtype 11 dashtype solid
set linetype cycle 7

# ---- frame ----
set border linewidth 1 linecolor rgb '#333333'
set tics nomirror out scale 0.6 textcolor rgb '#222222'
set grid xtics ytics mxtics mytics linecolor rgb '#E4E4E4' linewidth 0.6, linecolor rgb '#F2F2F2' linewidth 0.4
set key noenhanced

# ---- axes: log-log ----
set logscale xy 10
set xlabel 'Arithmetic intensity [FLOP/B]'
set ylabel 'Attained performance'
set format x '%g'
set format y '%.0s %cFLOP/s'
set xtics 10
set ytics 10
set mxtics 10
set mytics 10
# The plot area and ranges are fixed: ridge placed the labels for exactly this
# frame. Changing the size is fine; changing ranges or margins may move data
# under labels.
set lmargin at screen 0.215324074074
set rmargin at screen 0.697416666667
set bmargin at screen 0.126653439153
set tmargin at screen 0.851736111111
set xrange [0.1:10000]
set yrange [100000000000:1e+16]
# Title and key in a band above the plot
set label 1000 'llama-2-7b on NVIDIA A100 SXM4 80 GB: batch 1, fp16, prefill' at screen 0.5, screen 0.948908730159 center font ',11'
set key horizontal maxcols 1 Left reverse samplen 1.2 width 1 at screen 0.5, screen 0.91832010582 center top
set style fill transparent solid 0.45 noborder
set style textbox opaque noborder margins 1,1
# The roofs' labels, in the right margin (they hold no names from input files)
set label 1 'fp64/fp32 19.5 TFLOP/s' at screen 0.717416666667, screen 0.45874632213 left font ',9' textcolor lt 1
set arrow 1 from screen 0.697416666667, screen 0.45874632213 to screen 0.714083333333, screen 0.45874632213 nohead lt 1 lw 0.8
set label 2 'tf32 156 TFLOP/s' at screen 0.717416666667, screen 0.589709302287 left font ',9' textcolor lt 1
set arrow 2 from screen 0.697416666667, screen 0.589709302287 to screen 0.714083333333, screen 0.589709302287 nohead lt 1 lw 0.8
set label 3 'fp16/bf16 312 TFLOP/s' at screen 0.717416666667, screen 0.633363629006 left font ',9' textcolor lt 1
set arrow 3 from screen 0.697416666667, screen 0.633363629006 to screen 0.714083333333, screen 0.633363629006 nohead lt 1 lw 0.8
set label 4 'int8 624 TOP/s' at screen 0.717416666667, screen 0.677017955725 left font ',9' textcolor lt 1
set arrow 4 from screen 0.697416666667, screen 0.677017955725 to screen 0.714083333333, screen 0.677017955725 nohead lt 1 lw 0.8

data = 'llama2-a100-prefill-roofline.dat'

# Per hardware N (colour N): roofs (run's dtype solid, other dtypes dashed), diagonals
# (DRAM solid, nearer levels dashed), ridge points, layers, then the labels.
plot \
    data index 0 using 1:2 with lines lt 1 lw 2.5 notitle, \
    data index 1 using 1:2 with lines lt 1 lw 1 dt (5,4) notitle, \
    data index 2 using 1:2 with lines lt 1 lw 2.5 notitle, \
    data index 3 using 1:2 with lines lt 1 lw 1 dt (5,4) notitle, \
    data index 5 using 1:2:4 with points pt 7 ps variable lc rgb '#700072B2' notitle, \
    data index 5 using 1:2:4 with points pt 6 ps variable lt 1 lw 0.8 notitle, \
    data index 4 using 1:2 with points pt 13 ps 1.1 lt 1 notitle, \
    data index 4 using 1:2 with points pt 12 ps 1.1 lc rgb '#222222' lw 0.8 notitle, \
    keyentry with points pt 6 ps 1.4 lc rgb '#555555' title 'marker area: time share', \
    data index 6 using 1:2:(stringcolumn(3)):4 with labels center rotate variable font ',9' tc lt 1 notitle, \
    data index 9 using 1:2 with lines lc rgb '#777777' lw 0.7 notitle, \
    data index 8 using 1:2:(stringcolumn(3)) with labels left tc rgb '#222222' notitle
