# bxplot: the plot of gteps_kron_24_16_1.svg/.png from gteps_kron_24_16_1.dat; to redraw, in this folder:
# gnuplot -e "set terminal svg; set output 'gteps_kron_24_16_1.svg'" gteps_kron_24_16_1.gp
set title "GTEPS per method and device count (GPU-BOX Fig. 9) - 2^24, cpu backend" noenhanced
set xlabel "devices" noenhanced
set ylabel "GTEPS, harmonic mean over roots (bars: first to third quartile)" noenhanced
set key outside right top vertical Left reverse noenhanced box opaque
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set style fill solid 0.75 border -1
set boxwidth 0.126667 absolute
set xrange [-0.6:2.6]
set yrange [0:*]
set xtics ("2" 0, "4" 1, "8" 2)
plot "gteps_kron_24_16_1.dat" index 0 using 2:3 with boxes lc rgb '#d62728' fs solid 0.8 border -1 title "sort-unique, wire list", \
     '' index 0 using 2:3:4:5 with yerrorbars pt 0 lw 1 lc rgb '#000000' notitle, \
     "gteps_kron_24_16_1.dat" index 1 using 2:3 with boxes lc rgb '#d62728' fs pattern 4 border -1 title "sort-unique, wire auto", \
     '' index 1 using 2:3:4:5 with yerrorbars pt 0 lw 1 lc rgb '#000000' notitle, \
     "gteps_kron_24_16_1.dat" index 2 using 2:3 with boxes lc rgb '#1f77b4' fs solid 0.8 border -1 title "valid-flag, wire list", \
     '' index 2 using 2:3:4:5 with yerrorbars pt 0 lw 1 lc rgb '#000000' notitle, \
     "gteps_kron_24_16_1.dat" index 3 using 2:3 with boxes lc rgb '#1f77b4' fs pattern 4 border -1 title "valid-flag, wire auto", \
     '' index 3 using 2:3:4:5 with yerrorbars pt 0 lw 1 lc rgb '#000000' notitle, \
     "gteps_kron_24_16_1.dat" index 4 using 2:3 with boxes lc rgb '#2ca02c' fs solid 0.8 border -1 title "atomic, wire list", \
     '' index 4 using 2:3:4:5 with yerrorbars pt 0 lw 1 lc rgb '#000000' notitle, \
     "gteps_kron_24_16_1.dat" index 5 using 2:3 with boxes lc rgb '#2ca02c' fs pattern 4 border -1 title "atomic, wire auto", \
     '' index 5 using 2:3:4:5 with yerrorbars pt 0 lw 1 lc rgb '#000000' notitle
