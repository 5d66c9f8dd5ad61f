# bxplot: the plot of level_phases.svg/.png from level_phases.dat; to redraw, in this folder:
# gnuplot -e "set terminal svg; set output 'level_phases.svg'" level_phases.gp
set title "Time per phase and level (root 2237860) - kron:24:16:1, 8 devices, valid-flag, wire list, cpu" noenhanced
set xlabel "BFS level" noenhanced
set ylabel "time (ms)" noenhanced
set key outside right top vertical Left reverse noenhanced box opaque
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.75
set yrange [0:*]
plot "level_phases.dat" index 0 using ($2/0.001):xtic(1) lc rgb '#1f77b4' title "expand (measured)", \
     "level_phases.dat" index 1 using ($2/0.001):xtic(1) lc rgb '#ff7f0e' title "contract (measured)", \
     "level_phases.dat" index 2 using ($2/0.001):xtic(1) lc rgb '#d62728' title "exchange (measured)", \
     "level_phases.dat" index 3 using ($2/0.001):xtic(1) lc rgb '#2ca02c' title "update (measured)", \
     "level_phases.dat" index 4 using 1:($2/0.001) with linespoints lw 2 pt 7 lc rgb '#000000' title "exchange modeled on expether-2x10g"
