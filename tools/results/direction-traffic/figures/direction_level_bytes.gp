# bxplot: the plot of direction_level_bytes.svg/.png from direction_level_bytes.dat; to redraw, in this folder:
# gnuplot -e "set terminal svg; set output 'direction_level_bytes.svg'" direction_level_bytes.gp
set title "Bytes per level, top-down vs auto\nkron:24:16:1, 8 devices, root 2237860, valid-flag, wire list, cpu backend" noenhanced
set xlabel "BFS level" noenhanced
set ylabel "bytes sent in the level, all phases (MB)" noenhanced
set key outside right top vertical Left reverse noenhanced box opaque
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set boxwidth 0.38 absolute
set logscale y 10
set format y '%g'
set yrange [0.00028200000000000002:*]
set xrange [-0.6:7.6]
set xtics 1
plot "direction_level_bytes.dat" index 0 using 1:($2/1e+06) with boxes fs solid 0.8 border -1 lc rgb '#1f77b4' title "top-down run: frontier lists (every level top-down)", \
     "direction_level_bytes.dat" index 1 using 1:($2/1e+06) with boxes fs pattern 4 border -1 lc rgb '#1f77b4' title "auto run, top-down levels: frontier lists", \
     "direction_level_bytes.dat" index 2 using 1:($2/1e+06) with boxes fs solid 0.8 border -1 lc rgb '#ff7f0e' title "auto run, bottom-up levels: frontier bitmap all-gather"
