# bxplot: the plot of partition_bytes.svg/.png from partition_bytes.dat; to redraw, in this folder:
# gnuplot -e "set terminal svg; set output 'partition_bytes.svg'" partition_bytes.gp
set title "Bytes per BFS, 1D vs 2D partition\n4 roots per point" noenhanced
set xlabel "devices (2D: the squarest R x C grid)" noenhanced
set ylabel "bytes between devices per BFS (MB)" noenhanced
set key outside right top vertical Left reverse noenhanced box opaque
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set logscale x 2
set xrange [3.2:80]
set xtics ("4" 4, "8" 8, "16" 16, "64" 64)
set logscale y 10
set format y '%g'
plot "partition_bytes.dat" index 0 using 1:($2/1e+06) with linespoints lw 1.5 dt 2 pt 6 ps 1.5 lc rgb '#1f77b4' title "2^20, 1d", \
     "partition_bytes.dat" index 1 using 1:($2/1e+06) with linespoints lw 2.5 dt 1 pt 7 ps 1.5 lc rgb '#1f77b4' title "2^20, 2d"
