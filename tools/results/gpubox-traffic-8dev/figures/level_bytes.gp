# bxplot: the plot of level_bytes.svg/.png from level_bytes.dat; to redraw, in this folder:
# gnuplot -e "set terminal svg; set output 'level_bytes.svg'" level_bytes.gp
set title "Bytes sent per level (root 2237860) - kron:24:16:1, 8 devices, valid-flag, wire list, cpu" noenhanced
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
     "level_bytes.dat" index 3 using ($2/1e+06):xtic(1) lc rgb '#d62728' title "link 0 > 4", \
     "level_bytes.dat" index 4 using ($2/1e+06):xtic(1) lc rgb '#9467bd' title "link 0 > 5", \
     "level_bytes.dat" index 5 using ($2/1e+06):xtic(1) lc rgb '#8c564b' title "link 0 > 6", \
     "level_bytes.dat" index 6 using ($2/1e+06):xtic(1) lc rgb '#e377c2' title "link 0 > 7", \
     "level_bytes.dat" index 7 using ($2/1e+06):xtic(1) lc rgb '#7f7f7f' title "link 1 > 0", \
     "level_bytes.dat" index 8 using ($2/1e+06):xtic(1) lc rgb '#bcbd22' title "link 1 > 2", \
     "level_bytes.dat" index 9 using ($2/1e+06):xtic(1) lc rgb '#17becf' title "link 1 > 3", \
     "level_bytes.dat" index 10 using ($2/1e+06):xtic(1) lc rgb '#aec7e8' title "link 1 > 4", \
     "level_bytes.dat" index 11 using ($2/1e+06):xtic(1) lc rgb '#ffbb78' title "link 1 > 5", \
     "level_bytes.dat" index 12 using ($2/1e+06):xtic(1) lc rgb '#98df8a' title "link 1 > 6", \
     "level_bytes.dat" index 13 using ($2/1e+06):xtic(1) lc rgb '#ff9896' title "link 1 > 7", \
     "level_bytes.dat" index 14 using ($2/1e+06):xtic(1) lc rgb '#c5b0d5' title "link 2 > 0", \
     "level_bytes.dat" index 15 using ($2/1e+06):xtic(1) lc rgb '#c49c94' title "link 2 > 1", \
     "level_bytes.dat" index 16 using ($2/1e+06):xtic(1) lc rgb '#1f77b4' fs pattern 5 border -1 title "link 2 > 3", \
     "level_bytes.dat" index 17 using ($2/1e+06):xtic(1) lc rgb '#ff7f0e' fs pattern 5 border -1 title "link 2 > 4", \
     "level_bytes.dat" index 18 using ($2/1e+06):xtic(1) lc rgb '#2ca02c' fs pattern 5 border -1 title "link 2 > 5", \
     "level_bytes.dat" index 19 using ($2/1e+06):xtic(1) lc rgb '#d62728' fs pattern 5 border -1 title "link 2 > 6", \
     "level_bytes.dat" index 20 using ($2/1e+06):xtic(1) lc rgb '#9467bd' fs pattern 5 border -1 title "link 2 > 7", \
     "level_bytes.dat" index 21 using ($2/1e+06):xtic(1) lc rgb '#8c564b' fs pattern 5 border -1 title "link 3 > 0", \
     "level_bytes.dat" index 22 using ($2/1e+06):xtic(1) lc rgb '#e377c2' fs pattern 5 border -1 title "link 3 > 1", \
     "level_bytes.dat" index 23 using ($2/1e+06):xtic(1) lc rgb '#7f7f7f' fs pattern 5 border -1 title "link 3 > 2", \
     "level_bytes.dat" index 24 using ($2/1e+06):xtic(1) lc rgb '#bcbd22' fs pattern 5 border -1 title "link 3 > 4", \
     "level_bytes.dat" index 25 using ($2/1e+06):xtic(1) lc rgb '#17becf' fs pattern 5 border -1 title "link 3 > 5", \
     "level_bytes.dat" index 26 using ($2/1e+06):xtic(1) lc rgb '#aec7e8' fs pattern 5 border -1 title "link 3 > 6", \
     "level_bytes.dat" index 27 using ($2/1e+06):xtic(1) lc rgb '#ffbb78' fs pattern 5 border -1 title "link 3 > 7", \
     "level_bytes.dat" index 28 using ($2/1e+06):xtic(1) lc rgb '#98df8a' fs pattern 5 border -1 title "link 4 > 0", \
     "level_bytes.dat" index 29 using ($2/1e+06):xtic(1) lc rgb '#ff9896' fs pattern 5 border -1 title "link 4 > 1", \
     "level_bytes.dat" index 30 using ($2/1e+06):xtic(1) lc rgb '#c5b0d5' fs pattern 5 border -1 title "link 4 > 2", \
     "level_bytes.dat" index 31 using ($2/1e+06):xtic(1) lc rgb '#c49c94' fs pattern 5 border -1 title "link 4 > 3", \
     "level_bytes.dat" index 32 using ($2/1e+06):xtic(1) lc rgb '#1f77b4' fs pattern 6 border -1 title "link 4 > 5", \
     "level_bytes.dat" index 33 using ($2/1e+06):xtic(1) lc rgb '#ff7f0e' fs pattern 6 border -1 title "link 4 > 6", \
     "level_bytes.dat" index 34 using ($2/1e+06):xtic(1) lc rgb '#2ca02c' fs pattern 6 border -1 title "link 4 > 7", \
     "level_bytes.dat" index 35 using ($2/1e+06):xtic(1) lc rgb '#d62728' fs pattern 6 border -1 title "link 5 > 0", \
     "level_bytes.dat" index 36 using ($2/1e+06):xtic(1) lc rgb '#9467bd' fs pattern 6 border -1 title "link 5 > 1", \
     "level_bytes.dat" index 37 using ($2/1e+06):xtic(1) lc rgb '#8c564b' fs pattern 6 border -1 title "link 5 > 2", \
     "level_bytes.dat" index 38 using ($2/1e+06):xtic(1) lc rgb '#e377c2' fs pattern 6 border -1 title "link 5 > 3", \
     "level_bytes.dat" index 39 using ($2/1e+06):xtic(1) lc rgb '#7f7f7f' fs pattern 6 border -1 title "link 5 > 4", \
     "level_bytes.dat" index 40 using ($2/1e+06):xtic(1) lc rgb '#bcbd22' fs pattern 6 border -1 title "link 5 > 6", \
     "level_bytes.dat" index 41 using ($2/1e+06):xtic(1) lc rgb '#17becf' fs pattern 6 border -1 title "link 5 > 7", \
     "level_bytes.dat" index 42 using ($2/1e+06):xtic(1) lc rgb '#aec7e8' fs pattern 6 border -1 title "link 6 > 0", \
     "level_bytes.dat" index 43 using ($2/1e+06):xtic(1) lc rgb '#ffbb78' fs pattern 6 border -1 title "link 6 > 1", \
     "level_bytes.dat" index 44 using ($2/1e+06):xtic(1) lc rgb '#98df8a' fs pattern 6 border -1 title "link 6 > 2", \
     "level_bytes.dat" index 45 using ($2/1e+06):xtic(1) lc rgb '#ff9896' fs pattern 6 border -1 title "link 6 > 3", \
     "level_bytes.dat" index 46 using ($2/1e+06):xtic(1) lc rgb '#c5b0d5' fs pattern 6 border -1 title "link 6 > 4", \
     "level_bytes.dat" index 47 using ($2/1e+06):xtic(1) lc rgb '#c49c94' fs pattern 6 border -1 title "link 6 > 5", \
     "level_bytes.dat" index 48 using ($2/1e+06):xtic(1) lc rgb '#1f77b4' fs pattern 4 border -1 title "link 6 > 7", \
     "level_bytes.dat" index 49 using ($2/1e+06):xtic(1) lc rgb '#ff7f0e' fs pattern 4 border -1 title "link 7 > 0", \
     "level_bytes.dat" index 50 using ($2/1e+06):xtic(1) lc rgb '#2ca02c' fs pattern 4 border -1 title "link 7 > 1", \
     "level_bytes.dat" index 51 using ($2/1e+06):xtic(1) lc rgb '#d62728' fs pattern 4 border -1 title "link 7 > 2", \
     "level_bytes.dat" index 52 using ($2/1e+06):xtic(1) lc rgb '#9467bd' fs pattern 4 border -1 title "link 7 > 3", \
     "level_bytes.dat" index 53 using ($2/1e+06):xtic(1) lc rgb '#8c564b' fs pattern 4 border -1 title "link 7 > 4", \
     "level_bytes.dat" index 54 using ($2/1e+06):xtic(1) lc rgb '#e377c2' fs pattern 4 border -1 title "link 7 > 5", \
     "level_bytes.dat" index 55 using ($2/1e+06):xtic(1) lc rgb '#7f7f7f' fs pattern 4 border -1 title "link 7 > 6"
