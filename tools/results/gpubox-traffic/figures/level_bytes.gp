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
plot "level_bytes.dat" index 0 using ($2/1e+06):xtic(1) lc rgb '#1f77b4' title "all links (the report has no per-link split of levels)"
