#!/usr/bin/perl
# check-aller.pl WORLD LONGS ITERS MODE FILE: checks an aller output against
# the specification, recomputing the partition arithmetic independently.
# Prints what is wrong and exits 1, or exits 0.
use strict;
use warnings;

my ($world, $longs, $iters, $mode, $file) = @ARGV;
die "usage: check-aller.pl WORLD LONGS ITERS MODE FILE\n" unless defined $file;
open(my $fh, '<', $file) or die "cannot open $file: $!\n";
my @lines = <$fh>;
chomp @lines;
my @errors;
sub err { push @errors, join('', @_); }

my %key;
for (@lines) { $key{$1} //= $2 if /^# ([a-z_]+): (.*)$/; }
for my $k (qw(aller format command mpi world nodes tasks_per_node host buffers verify
              mode iters longs start timer statistics columns)) {
	err("header lacks '# $k:'") unless exists $key{$k};
}
err("world is '$key{world}', not $world") unless ($key{world} // '') eq $world;
err("mode is '$key{mode}', not $mode") unless ($key{mode} // '') eq $mode;
err("iters is '$key{iters}', not $iters") unless ($key{iters} // '') eq $iters;
err("longs is '$key{longs}', not $longs") unless ($key{longs} // '') eq $longs;
err("last line is '$lines[-1]', not '# Done'") unless $lines[-1] eq '# Done';

# Data sets: split at two blank lines.
my $text = join("\n", @lines) . "\n";
my @sets = split(/\n\n\n/, $text);
my $nlevels = 0;
for (my $t = $world; $t >= 1; $t = int($t / 2)) { $nlevels++; }
err(scalar(@sets) . " data sets, expected $nlevels") unless @sets == $nlevels;

for my $i (0 .. $#sets) {
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
	my @set = split(/\n/, $sets[$i]);
	my ($level) = grep { /^# level: / } @set;
	err("set $i: no '# level:' line") unless $level;
	err("set $i: level line '$level'") if $level && $level ne "# level: $i target $target comms $ncomms commsize $max";
	my ($sizes) = grep { /^# sizes: / } @set;
	if ($min != $max) {
		my $want = "# sizes: @sizes (uneven)";
		err("set $i: '" . ($sizes // 'no sizes line') . "', expected '$want'")
		    unless ($sizes // '') eq $want;
	} elsif ($sizes) {
		err("set $i: sizes line '$sizes' for even communicators");
	}
	err("set $i: no line naming mode, world and iterations")
	    unless grep { $_ eq "# $mode world $world iters $iters" } @set;
	my @rows = grep { !/^#/ && /\S/ } @set;
	my @counts;
	for (my $c = int($longs / $target); $c >= 1; $c = int($c / 2)) { push @counts, $c; }
	err("set $i: " . scalar(@rows) . " rows, expected " . scalar(@counts)) unless @rows == @counts;
	for my $r (0 .. $#rows) {
		my @f = split(' ', $rows[$r]);
		if (@f != 12) { err("set $i row $r: " . scalar(@f) . " columns"); next; }
		my ($comms, $size, $count, $gib, $tmin, $tavg, $tmax, $bmin, $bavg, $bmax, $agg, $slow) = @f;
		err("set $i row $r: comms $comms, expected $ncomms") unless $comms == $ncomms;
		err("set $i row $r: commsize $size, expected $max") unless $size == $max;
		err("set $i row $r: count $count, expected $counts[$r]")
		    unless defined $counts[$r] && $count == $counts[$r];
		my $want = 2 * $count * $max * 8 / 2**30;
		err("set $i row $r: GiB $gib, expected $want") if abs($gib - $want) > 1e-6 * $want;
		err("set $i row $r: times not 0 < min <= avg <= max: $tmin $tavg $tmax")
		    unless 0 < $tmin && $tmin <= $tavg * (1 + 1e-6) && $tavg <= $tmax * (1 + 1e-6);
		err("set $i row $r: bandwidths not 0 < min <= avg <= max: $bmin $bavg $bmax")
		    unless 0 < $bmin && $bmin <= $bavg * (1 + 1e-6) && $bavg <= $bmax * (1 + 1e-6);
		err("set $i row $r: aggregate bandwidth $agg") unless $agg > 0;
		err("set $i row $r: slowest rank $slow") unless $slow =~ /^\d+$/ && $slow < $world;
	}
}
if (@errors) {
	print STDERR "$file: $_\n" for @errors;
	exit 1;
}
exit 0;
