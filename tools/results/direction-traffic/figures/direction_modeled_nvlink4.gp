# bxplot: the plot of direction_modeled_nvlink4.svg/.png from direction_modeled_nvlink4.dat; to redraw, in this folder:
# gnuplot -e "set terminal svg; set output 'direction_modeled_nvlink4.svg'" direction_modeled_nvlink4.gp
set title "Modeled exchange time per BFS on nvlink4, top-down vs direction-optimizing\nlink model nvlink4, cpu backend, 64 roots per point" noenhanced
set xlabel "devices" noenhanced
set ylabel "modeled exchange time per BFS on nvlink4 (us)" noenhanced
set key outside right top vertical Left reverse noenhanced box opaque
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set logscale x 2
set xrange [1.6:10]
set xtics ("2" 2, "4" 4, "8" 8)
set logscale y 10
set format y '%g'
plot "direction_modeled_nvlink4.dat" index 0 using 1:($2/1e-06) with linespoints lw 2 dt 2 pt 6 ps 1.5 lc rgb '#1f77b4' title "2^20, top-down", \
     "direction_modeled_nvlink4.dat" index 1 using 1:($2/1e-06) with linespoints lw 3 dt 1 pt 7 ps 1.5 lc rgb '#1f77b4' title "2^20, auto", \
     "direction_modeled_nvlink4.dat" index 2 using 1:($2/1e-06) with linespoints lw 2 dt 2 pt 6 ps 1.5 lc rgb '#d62728' title "2^22, top-down", \
     "direction_modeled_nvlink4.dat" index 3 using 1:($2/1e-06) with linespoints lw 3 dt 1 pt 7 ps 1.5 lc rgb '#d62728' title "2^22, auto", \
     "direction_modeled_nvlink4.dat" index 4 using 1:($2/1e-06) with linespoints lw 2 dt 2 pt 6 ps 1.5 lc rgb '#2ca02c' title "2^24, top-down", \
     "direction_modeled_nvlink4.dat" index 5 using 1:($2/1e-06) with linespoints lw 3 dt 1 pt 7 ps 1.5 lc rgb '#2ca02c' title "2^24, auto"
