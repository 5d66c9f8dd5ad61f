# bxplot: the plot of level_bytes.svg/.png from level_bytes.dat; to redraw, in this folder:
# gnuplot -e "set terminal svg; set output 'level_bytes.svg'" level_bytes.gp
set title "Bytes sent per level (root 256689) - kron:20:16:1, 4 devices, valid-flag, wire list, cpu" noenhanced
set xlabel "BFS level" noenhanced
set ylabel "bytes sent in the level (MB)" noenhanced
set key outside right top vertical Left reverse noenhanced box opaque
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.75
set yrange [0:*]
plot "level_bytes.dat" index 0 using ($2/1e+06):xtic(1) lc rgb '#1f77b4' title "link 0 > 1", \
     "level_bytes.dat" index 1 using ($2/1e+06):xtic(1) lc rgb '#ff7f0e' title "link 0 > 2", \
     "level_bytes.dat" index 2 using ($2/1e+06):xtic(1) lc rgb '#2ca02c' title "link 0 > 3", \
     "level_bytes.dat" index 3 using ($2/1e+06):xtic(1) lc rgb '#d62728' title "link 1 > 0", \
     "level_bytes.dat" index 4 using ($2/1e+06):xtic(1) lc rgb '#9467bd' title "link 1 > 2", \
     "level_bytes.dat" index 5 using ($2/1e+06):xtic(1) lc rgb '#8c564b' title "link 1 > 3", \
     "level_bytes.dat" index 6 using ($2/1e+06):xtic(1) lc rgb '#e377c2' title "link 2 > 0", \
     "level_bytes.dat" index 7 using ($2/1e+06):xtic(1) lc rgb '#7f7f7f' title "link 2 > 1", \
     "level_bytes.dat" index 8 using ($2/1e+06):xtic(1) lc rgb '#bcbd22' title "link 2 > 3", \
     "level_bytes.dat" index 9 using ($2/1e+06):xtic(1) lc rgb '#17becf' title "link 3 > 0", \
     "level_bytes.dat" index 10 using ($2/1e+06):xtic(1) lc rgb '#aec7e8' title "link 3 > 1", \
     "level_bytes.dat" index 11 using ($2/1e+06):xtic(1) lc rgb '#ffbb78' title "link 3 > 2"
