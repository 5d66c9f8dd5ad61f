# bxplot: the plot of traffic_auto.svg/.png from traffic_auto.dat; to redraw, in this folder:
# gnuplot -e "set terminal svg; set output 'traffic_auto.svg'" traffic_auto.gp
set title "Frontier traffic per BFS (GPU-BOX Fig. 7) - wire auto" noenhanced
set xlabel "graph size: log2 of vertices (Kronecker scale)" noenhanced
set ylabel "bytes between devices per BFS, frontier exchange (MB)" noenhanced
set key outside right top vertical Left reverse noenhanced box opaque
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set logscale y 2
set format y '%g'
set xrange [19.7:24.3]
set xtics ("2^{20}" 20, "2^{22}" 22, "2^{24}" 24)
plot "traffic_auto.dat" index 0 using 1:($2/1e+06) with linespoints lw 2 dt 1 pt 7 ps 1.5 lc rgb '#d62728' title "sort-unique, 2 devices", \
     "traffic_auto.dat" index 1 using 1:($2/1e+06) with linespoints lw 2 dt 2 pt 5 ps 1.5 lc rgb '#d62728' title "sort-unique, 4 devices", \
     "traffic_auto.dat" index 2 using 1:($2/1e+06) with linespoints lw 2 dt 3 pt 9 ps 1.5 lc rgb '#d62728' title "sort-unique, 8 devices", \
     "traffic_auto.dat" index 3 using 1:($2/1e+06) with linespoints lw 3.5 dt 1 pt 6 ps 1.5 lc rgb '#1f77b4' title "valid-flag, 2 devices", \
     "traffic_auto.dat" index 4 using 1:($2/1e+06) with linespoints lw 3.5 dt 2 pt 4 ps 1.5 lc rgb '#1f77b4' title "valid-flag, 4 devices", \
     "traffic_auto.dat" index 5 using 1:($2/1e+06) with linespoints lw 3.5 dt 3 pt 8 ps 1.5 lc rgb '#1f77b4' title "valid-flag, 8 devices", \
     "traffic_auto.dat" index 6 using 1:($2/1e+06) with linespoints lw 1.5 dt 1 pt 1 ps 1.5 lc rgb '#2ca02c' title "atomic, 2 devices", \
     "traffic_auto.dat" index 7 using 1:($2/1e+06) with linespoints lw 1.5 dt 2 pt 2 ps 1.5 lc rgb '#2ca02c' title "atomic, 4 devices", \
     "traffic_auto.dat" index 8 using 1:($2/1e+06) with linespoints lw 1.5 dt 3 pt 3 ps 1.5 lc rgb '#2ca02c' title "atomic, 8 devices"
