# bxplot: the plot of modeled.svg/.png from modeled.dat; to redraw, in this folder:
# gnuplot -e "set terminal svg; set output 'modeled.svg'" modeled.gp
set title "Modeled exchange time vs measured search time, per BFS" noenhanced
set xlabel "measured search time per BFS, median (s, cpu backend)" noenhanced
set ylabel "modeled exchange time per BFS on expether-2x10g (s)" noenhanced
set key outside right top vertical Left reverse noenhanced box opaque
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set logscale xy 10
set format x '%.0e'
set format y '%.0e'
set xrange [0.00038572455000000002:13.676363494]
set yrange [0.00038572455000000002:13.676363494]
set grid xtics ytics lc rgb '#dddddd'
plot "modeled.dat" index 0 using 1:2 with points pt 7 ps 1.4 lc rgb '#d62728' title "sort-unique, wire list", \
     "modeled.dat" index 1 using 1:2 with points pt 5 ps 1.4 lc rgb '#d62728' title "sort-unique, wire auto", \
     "modeled.dat" index 2 using 1:2 with points pt 9 ps 1.4 lc rgb '#1f77b4' title "valid-flag, wire list", \
     "modeled.dat" index 3 using 1:2 with points pt 11 ps 1.4 lc rgb '#1f77b4' title "valid-flag, wire auto", \
     "modeled.dat" index 4 using 1:2 with points pt 13 ps 1.4 lc rgb '#2ca02c' title "atomic, wire list", \
     "modeled.dat" index 5 using 1:2 with points pt 6 ps 1.4 lc rgb '#2ca02c' title "atomic, wire auto", \
     "modeled.dat" index 6 using 1:2 with lines dt 2 lc rgb '#555555' title "modeled = measured"
