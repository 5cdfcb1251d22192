package Shop::Poll;
use strict;

# `while () { … }` loops forever: read as `for(;;)` in place
sub wait_ready {
    my ($self) = @_;
    my $tries = 0;
    while () {
        last if $self->ready || ++$tries > 3;
    }
    RETRY: while() {
        last RETRY;
    }
    return $tries;
}

sub ready { 1 }

# in a string it stays as written
sub label { 'while ()' }

# `@#` in a regex is two characters, no array
sub quoted {
    my ($s) = @_;
    return $s =~ /^[~!@#%&*|>?:,]/ ? "'$s'" : $s;
}

1;
