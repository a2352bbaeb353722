#!/usr/bin/perl
# check-aller.pl [--min-bytes=N] [--max-bytes=N] [--commsizes=LIST] WORLD LONGS ITERS MODE FILE:
# checks an aller output against the specification, recomputing the
# partition arithmetic, the selection of levels and sizes, the data sets of
# each level (one per algorithm of '# algos:'), the isolation columns
# ('# isolate:') and the derived columns independently. Prints what is
# wrong and exits 1, or exits 0.
use strict;
use warnings;

my ($minb, $maxb, %levels) = (0, 0);
while (@ARGV && $ARGV[0] =~ /^--(min-bytes|max-bytes|commsizes)=(.*)$/) {
	shift @ARGV;
	if ($1 eq 'min-bytes') { $minb = $2; }
	elsif ($1 eq 'max-bytes') { $maxb = $2; }
	else { $levels{$_} = 1 for split(/,/, $2); }
}
my ($world, $longs, $iters, $mode, $file) = @ARGV;
die "usage: check-aller.pl [--min-bytes=N] [--max-bytes=N] [--commsizes=LIST] WORLD LONGS ITERS MODE FILE\n"
    unless defined $file;
$levels{$world} = 1 if delete $levels{world};
my $rel = 2**(1 / 64) - 1;    # the percentiles' stated bound
open(my $fh, '<', $file) or die "cannot open $file: $!\n";
my @lines = <$fh>;
chomp @lines;
my @errors;
sub err { push @errors, join('', @_); }

my %key;
for (@lines) { $key{$1} //= $2 if /^# ([a-z_]+): (.*)$/; }
for my $k (qw(aller format command mpi world nodes tasks_per_node host buffers verify
              data mode iters warmup longs selection algos isolate start timer statistics
              columns)) {
	err("header lacks '# $k:'") unless exists $key{$k};
}
# the row's width from the header's own list (format.h's columns, never a number kept here)
my $ncols = scalar(split(' ', $key{columns} // ''));
err("world is '$key{world}', not $world") unless ($key{world} // '') eq $world;
err("mode is '$key{mode}', not $mode") unless ($key{mode} // '') eq $mode;
err("iters is '$key{iters}', not $iters") unless ($key{iters} // '') eq $iters;
err("longs is '$key{longs}', not $longs") unless ($key{longs} // '') eq $longs;
err("last line is '$lines[-1]', not '# Done'") unless $lines[-1] eq '# Done';

# Data sets: split at two blank lines.
my $text = join("\n", @lines) . "\n";
my @sets = split(/\n\n\n/, $text);
# The levels and counts that should be there.
sub counts_of {
	my ($target) = @_;
	my @c;
	for (my $c = int($longs / $target); $c >= 1; $c = int($c / 2)) {
		next if $maxb && 8 * $c > $maxb;
		last if $minb && 8 * $c < $minb;
		push @c, $c;
	}
	return @c;
}
my @algos = split(/,/, $key{algos} // 'alltoall');
my $isolate = $key{isolate} // 'none';
my (@want, @want_algo);
for (my ($t, $i) = ($world, 0); $t >= 1; $t = int($t / 2), $i++) {
	next if %levels && !$levels{$t};
	next unless counts_of($t);
	for my $a (@algos) { push @want, $i; push @want_algo, $a; }
}
err(scalar(@sets) . " data sets, expected " . scalar(@want)) unless @sets == @want;

for my $n (0 .. $#sets) {
	my $i = $want[$n] // -1;
	my $algo = $want_algo[$n] // '?';
	my $target = $world >> $i;
	my $ncomms = int(($world + $target - 1) / $target);
	my @sizes;
	for my $c (0 .. $ncomms - 1) {
		push @sizes, $mode eq 'strided'
		    ? int(($world - $c + $ncomms - 1) / $ncomms)
		    : ($world - $c * $target < $target ? $world - $c * $target : $target);
	}
	my ($max) = sort { $b <=> $a } @sizes;
	my ($min) = sort { $a <=> $b } @sizes;
	my @set = split(/\n/, $sets[$n]);
	my ($level) = grep { /^# level: / } @set;
	err("set $i: no '# level:' line") unless $level;
	err("set $i: level line '$level'") if $level && $level ne "# level: $i target $target comms $ncomms commsize $max";
	my ($sizes) = grep { /^# sizes: / } @set;
	if ($min != $max) {
		my @runs;
		for my $s (@sizes) {
			if (@runs && $runs[-1][0] == $s) { $runs[-1][1]++; } else { push @runs, [$s, 1]; }
		}
		my $want = "# sizes: " . join(' ', map { $_->[1] > 1 ? "$_->[0]x$_->[1]" : $_->[0] } @runs)
		    . " (uneven)";
		err("set $i: '" . ($sizes // 'no sizes line') . "', expected '$want'")
		    unless ($sizes // '') eq $want;
	} elsif ($sizes) {
		err("set $i: sizes line '$sizes' for even communicators");
	}
	err("set $i: no '# algo: $algo' line") unless grep { $_ eq "# algo: $algo" } @set;
	err("set $i: no line naming mode, world and iterations")
	    unless grep { $_ eq "# $mode world $world iters $iters" } @set;
	my @rows = grep { !/^#/ && /\S/ } @set;
	my @counts = counts_of($target);
	err("set $i: " . scalar(@rows) . " rows, expected " . scalar(@counts)) unless @rows == @counts;
	for my $r (0 .. $#rows) {
		my @f = split(' ', $rows[$r]);
		if (@f != $ncols) { err("set $i row $r: " . scalar(@f) . " columns, the header's $ncols"); next; }
		my ($comms, $size, $count, $gib, $tmin, $tavg, $tmax, $bmin, $bavg, $bmax, $agg, $slow,
		    $tmed, $tp99, $busbw, @iso) = @f;
		my ($imbalance, $vbusbw, $hottest, $calls, @congestion) = splice(@iso, 4);
		my ($tmed_lo, $tmed_hi, $offnode, $netbw, $eff) = splice(@congestion, 3);
		# one node: nothing leaves it, eff is against its copy bandwidth (or unknown)
		err("set $i row $r: offnode_B $offnode, netbw $netbw on one node")
		    if $key{nodes} == 1 && ($offnode != 0 || $netbw != 0);
		err("set $i row $r: eff '$eff'") unless $eff eq '-' || ($eff =~ /^[0-9.e+-]+$/ && $eff > 0);
		# --moe: the three phases' times, which add up to about tavg; else "-"
		for my $v (@f[31 .. 33]) {
			err("set $i row $r: a --moe column is '$v'")
			    unless defined $key{moe} ? $v =~ /^[0-9.e+-]+$/ && $v > 0 : $v eq '-';
		}
		if (defined $key{moe}) {
			my $sum = $f[31] + $f[32] + $f[33];
			err("set $i row $r: the phases add up to $sum, tavg $tavg") if $sum > $tavg * 1.001;
		}
		# the bound: a time and its link, or "-" for both
		my ($bound, $neck) = @f[34, 35];
		err("set $i row $r: bound_s '$bound', bottleneck '$neck'")
		    unless ($bound eq '-' && $neck eq '-') ||
		    ($bound =~ /^[0-9.e+-]+$/ && $bound > 0 && $neck =~ /^(nic|up|copy):[^ ]+$/);
		# the median's 95% interval holds it, within the times
		err("set $i row $r: tmed_lo $tmed_lo, tmed $tmed, tmed_hi $tmed_hi out of order")
		    unless $tmin <= $tmed_lo && $tmed_lo <= $tmed && $tmed <= $tmed_hi && $tmed_hi <= $tmax;
		# --congestion: tcongested_s, congestion and congestion_p99 measured, else "-"
		my $congested = defined $key{congestion};
		for my $k (0 .. 2) {
			my $v = $congestion[$k];
			err("set $i row $r: congestion column $k is '$v'")
			    unless $congested ? $v =~ /^[0-9.e+-]+$/ && $v > 0 : $v eq '-';
		}
		err("set $i row $r: iters $calls, expected $iters") unless $calls == $iters;
		# isolation: talone and interference where communicators were run alone,
		# the average and worst factor with every one; "-" elsewhere
		my @measured = ($isolate eq 'none' || $ncomms < 2) ? (0, 0, 0, 0)
		    : $isolate eq 'communicator 0' ? (1, 1, 0, 0) : (1, 1, 1, 1);
		for my $k (0 .. 3) {
			my $ok = $measured[$k] ? $iso[$k] =~ /^[0-9.e+-]+$/ && $iso[$k] > 0 : $iso[$k] eq '-';
			err("set $i row $r: isolation column $k is '$iso[$k]'") unless $ok;
		}
		err("set $i row $r: interference_avg $iso[2] > interference_max $iso[3]")
		    if $measured[3] && $iso[2] > $iso[3] * (1 + 1e-6);
		err("set $i row $r: comms $comms, expected $ncomms") unless $comms == $ncomms;
		err("set $i row $r: commsize $size, expected $max") unless $size == $max;
		err("set $i row $r: count $count, expected $counts[$r]")
		    unless defined $counts[$r] && $count == $counts[$r];
		my $want = 2 * $count * $max * 8 / 2**30 * (defined $key{moe} ? 2 : 1);   # --moe: both ways
		err("set $i row $r: GiB $gib, expected $want") if abs($gib - $want) > 1e-6 * $want;
		err("set $i row $r: times not 0 < min <= avg <= max: $tmin $tavg $tmax")
		    unless 0 < $tmin && $tmin <= $tavg * (1 + 1e-6) && $tavg <= $tmax * (1 + 1e-6);
		err("set $i row $r: bandwidths not 0 < min <= avg <= max: $bmin $bavg $bmax")
		    unless 0 < $bmin && $bmin <= $bavg * (1 + 1e-6) && $bavg <= $bmax * (1 + 1e-6);
		err("set $i row $r: aggregate bandwidth $agg") unless $agg > 0;
		err("set $i row $r: slowest rank $slow") unless $slow =~ /^\d+$/ && $slow < $world;
		err("set $i row $r: percentiles not tmin <= tmed <= tp99 <= tmax: $tmin $tmed $tp99 $tmax")
		    unless $tmin <= $tmed * (1 + $rel) && $tmed <= $tp99 * (1 + 1e-6)
		    && $tp99 <= $tmax * (1 + 1e-6);
		# even communicators: every task moves the same bytes, so bwavg = GiB / tavg
		my $bw = $gib / $tavg;
		err("set $i row $r: bwavg $bavg, expected GiB / tavg = $bw")
		    if $min == $max && abs($bavg - $bw) > 1e-5 * $bw;
		my $bus = $count * $max * 8 / $tavg / 1e9 * ($max - 1) / $max * (defined $key{moe} ? 2 : 1);
		err("set $i row $r: busbw $busbw, expected $bus")
		    if abs($busbw - $bus) > 1e-5 * $bus + 1e-300;
		# uniform: the split's columns say so (even communicators: no task busier than another)
		err("set $i row $r: busbw_v $vbusbw, expected busbw $busbw")
		    if abs($vbusbw - $busbw) > 1e-5 * $busbw + 1e-300;
		err("set $i row $r: imbalance $imbalance, hottest rank $hottest with even communicators")
		    if $min == $max && ($imbalance != 1 || $hottest ne '-');
		err("set $i row $r: imbalance $imbalance, hottest rank $hottest with uneven ones")
		    if $min != $max && ($imbalance <= 1 || $hottest !~ /^\d+$/ || $hottest >= $world);
	}
}
if (@errors) {
	print STDERR "$file: $_\n" for @errors;
	exit 1;
}
exit 0;
