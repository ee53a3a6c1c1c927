# sgr.awk: reads `tmux capture-pane -p -e` and says, per screen row, which
# colours its characters are drawn in, following the SGR escapes (16 colours,
# bright ones, 38;5;N/48;5;N, 38;2;R;G;B, reverse video). Prints
#   BG ROW LIST   the backgrounds of the row's non-blank characters (d: default)
#   EQUAL ROW FG CHAR   a character drawn in its own background colour
# ROW counts from 1, as the captured lines do.
BEGIN { ESC = sprintf("%c", 27); fg = "d"; bg = "d"; rev = 0 }

function sgr(code,    p, n, k, v) {
	if (code == "") code = "0"
	n = split(code, p, ";")
	for (k = 1; k <= n; k++) {
		v = p[k] + 0
		if (v == 0) { fg = "d"; bg = "d"; rev = 0 }
		else if (v == 7) rev = 1
		else if (v == 27) rev = 0
		else if (v >= 30 && v <= 37) fg = v - 30
		else if (v == 39) fg = "d"
		else if (v >= 40 && v <= 47) bg = v - 40
		else if (v == 49) bg = "d"
		else if (v >= 90 && v <= 97) fg = v - 90 + 8
		else if (v >= 100 && v <= 107) bg = v - 100 + 8
		else if ((v == 38 || v == 48) && p[k + 1] == 5) {
			if (v == 38) fg = p[k + 2] + 0; else bg = p[k + 2] + 0
			k += 2
		} else if ((v == 38 || v == 48) && p[k + 1] == 2) {
			if (v == 38) fg = p[k + 2] "," p[k + 3] "," p[k + 4]; else bg = p[k + 2] "," p[k + 3] "," p[k + 4]
			k += 4
		}
	}
}

# Colours 0..15 may come as 30-37/90-97 or as 38;5;N: one name for each.
function text(s,    i, c, f, b) {
	f = rev ? bg : fg
	b = rev ? fg : bg
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (f != "d" && f "" == b "")
			print "EQUAL " NR " " f " " c
		if (c != " " && !((NR, b) in seen)) {
			seen[NR, b] = 1
			bgs[NR] = bgs[NR] " " b
		}
	}
}

{
	line = $0
	while (length(line) > 0) {
		i = index(line, ESC "[")
		if (i == 0) {
			text(line)
			break
		}
		text(substr(line, 1, i - 1))
		rest = substr(line, i + 2)
		j = match(rest, /[A-Za-z]/)
		if (j == 0)
			break
		if (substr(rest, j, 1) == "m")
			sgr(substr(rest, 1, j - 1))
		line = substr(rest, j + 1)
	}
	if (NR > rows) rows = NR
}

END {
	for (r = 1; r <= rows; r++)
		print "BG " r bgs[r]
}
