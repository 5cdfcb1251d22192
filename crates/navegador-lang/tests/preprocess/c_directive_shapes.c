// What the C pack's [preprocess] rules read in place (issue 13, session 13): comments and
// `/\` in a directive's body, attributes after a function's parameters, a declarator macro
// naming a reserved name, empty and operator arguments, a macro ending a body.
#define READ_PAIR(var, copy)			\
({						\
	u64 __val;				\
	do {					\
		/*				\
		 * paired with a write barrier	\
		 */				\
		smp_rmb();			\
		__val = var;			\
	} while (__val != copy);		\
	__val;					\
})

#define STOP_BITS        0x0020               /* 2 stop bits */ 
#define ENTRIES(hd, ent) ((BUF_SIZE - \
	(hd)) /\
	(ent))

#define POSTAMBLE \
	v3 ^= b; \
	v0 ^= b;

static u64 notrace __prog_enter(struct prog *prog)
	__acquires(RCU)
{
	rcu_read_lock();
	return start_time(prog);
}

static void __printf(3, 4) __init
__test(const char *expect, int elen, const char *fmt, ...)
{
	do_test(expect, elen, fmt);
}

static int __rpm_callback(int (*cb)(struct device *), struct device *dev)
	__releases(&dev->lock) __acquires(&dev->lock)
{
	return cb(dev);
}

ALLOW_ERROR_INJECTION(__add_folio, ERRNO);

u64 hash(const void *data, u64 b)
{
	u64 v3 = 0, v0 = 0;
	TEST(, add, +=, data);
	TEST(, andnot, &= ~, data);
	search_sorted_by(
		&data,,
		b);
	POSTAMBLE
}
