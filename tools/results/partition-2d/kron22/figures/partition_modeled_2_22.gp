# bxplot: the plot of partition_modeled_2_22.svg/.png from partition_modeled_2_22.dat; to redraw, in this folder:
# gnuplot -e "set terminal svg; set output 'partition_modeled_2_22.svg'" partition_modeled_2_22.gp
set title "Modeled exchange time per BFS, 1D vs 2D, 2^22\n4 roots per point" noenhanced
set xlabel "devices" noenhanced
set ylabel "modeled exchange time per BFS (ms)" noenhanced
set key outside right top vertical Left reverse noenhanced box opaque
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set logscale x 2
set xrange [3.2:80]
set xtics ("4" 4, "8" 8, "16" 16, "64" 64)
set logscale y 10
set format y '%g'
plot "partition_modeled_2_22.dat" index 0 using 1:($2/0.001) with linespoints lw 1.5 dt 2 pt 6 ps 1.5 lc rgb '#1f77b4' title "expether-2x10g, 1d", \
     "partition_modeled_2_22.dat" index 1 using 1:($2/0.001) with linespoints lw 2.5 dt 1 pt 7 ps 1.5 lc rgb '#1f77b4' title "expether-2x10g, 2d", \
     "partition_modeled_2_22.dat" index 2 using 1:($2/0.001) with linespoints lw 1.5 dt 2 pt 6 ps 1.5 lc rgb '#ff7f0e' title "expether-2x10g-shared, 1d", \
     "partition_modeled_2_22.dat" index 3 using 1:($2/0.001) with linespoints lw 2.5 dt 1 pt 7 ps 1.5 lc rgb '#ff7f0e' title "expether-2x10g-shared, 2d", \
     "partition_modeled_2_22.dat" index 4 using 1:($2/0.001) with linespoints lw 1.5 dt 2 pt 6 ps 1.5 lc rgb '#2ca02c' title "nvlink4, 1d", \
     "partition_modeled_2_22.dat" index 5 using 1:($2/0.001) with linespoints lw 2.5 dt 1 pt 7 ps 1.5 lc rgb '#2ca02c' title "nvlink4, 2d"
