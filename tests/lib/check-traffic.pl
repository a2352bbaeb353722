#!/usr/bin/perl
# check-traffic.pl FINGERPRINT OUT: every data line of a --reveal=pml run is
# followed by a "# traffic:" line whose figures fit the row: bytes per call
# per rank count x 8 x (commsize - 1) for pairwise sizes (more for Bruck),
# the logical payload exactly that, no cross traffic, and the fingerprint
# FINGERPRINT ("pairwise/linear" or "bruck-like") wherever commsize >= 4.
use strict;
use warnings;

my ($want, $file) = @ARGV;
open(my $fh, '<', $file) or die "check-traffic: cannot read '$file': $!\n";
my @lines = <$fh>;
my ($rows, $bad) = (0, 0);
sub bad { print STDERR "check-traffic: $file: @_\n"; $bad++; }
for my $i (0 .. $#lines) {
	next unless $lines[$i] =~ /^(\d+) (\d+) (\d+) /;
	my ($comms, $g, $count) = ($1, $2, $3);
	my $t = $lines[$i + 1] // '';
	$rows++;
	unless ($t =~ /^# traffic: count=$count tier=pml /) {
		bad("row $i (count $count) is not followed by its traffic line");
		next;
	}
	my %kv = $t =~ /(\w+)=(\S+)/g;
	my $logical = $count * 8 * ($g - 1);
	bad("count $count commsize $g: logical $kv{logical}, expected $logical")
		if $kv{logical} != $logical;
	bad("count $count commsize $g: cross_bytes $kv{cross_bytes}, expected 0")
		if $kv{cross_bytes} != 0;
	if ($want eq 'pairwise/linear' || $g < 4) {
		bad("count $count commsize $g: bytes $kv{bytes}, expected $logical")
			if $kv{bytes} != $logical || $kv{bytes_min} != $kv{bytes_max};
		bad("count $count commsize $g: msgs $kv{msgs}, expected " . ($g - 1))
			if $kv{msgs} != $g - 1;
	} else {
		bad("count $count commsize $g: bytes $kv{bytes} not above $logical")
			if $kv{bytes} <= $logical;
	}
	my $fp = $g == 1 ? 'alone' : $g < 4 ? 'pairwise/linear' : $want;
	bad("count $count commsize $g: fingerprint $kv{fingerprint}, expected $fp")
		if $kv{fingerprint} ne $fp;
}
bad("no data lines") if $rows == 0;
exit($bad ? 1 : 0);
