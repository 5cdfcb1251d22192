/* macros the file defines as nothing or as an attribute (defined_attributes) */
#define __ALIGNED__ __attribute__((aligned(sizeof(long))))
#define INIT __init
#define EXPORTED
#ifdef DEBUG
#define trace(fmt, ...)
#else
#define trace(fmt, ...)
#endif
#ifdef CONFIG_KBD
extern void kbd_cleanup(void);
#else
#define kbd_cleanup()
#endif
char buf[64] __ALIGNED__;
int INIT __decompress(unsigned char *in, long len)
{
	trace("len %ld\n", len);
	kbd_cleanup();
	return 0;
}
EXPORTED int answer = 42;

/* a type, then an attribute macro the file does not define (specifier_macros) */
static noinline u32 target(u32 value)
{
	return value;
}
static u64 notrace clock_read(void)
{
	return 0;
}
word_type notrace cmp(long long a, long long b)
{
	return a < b;
}
static struct node notrace *del_first(struct head *h)
{
	return 0;
}
static noinline enum owner_state
spin_on_owner(struct lock *l)
{
	return 0;
}
UChar32 U_EXPORT2
next_char(const char *s)
{
	return 0;
}
void noinstr __user_enter(int state)
{
}
wint_t __towupper_l(wint_t c, locale_t l)
{
	return c;
}

/* an upper-case type before a qualifier is the type (macros) */
size_t count(const void *src)
{
	U32 const target = 1;
	BYTE const* p = src;
	return target + (p != 0);
}

/* offsetof's member designator (designators) */
size_t offsets(void)
{
	return offsetof(struct s, a.b) + offsetof(struct s, arr[2]);
}

/* an empty macro argument (macros) */
void empty_args(void)
{
	insert_sorted_by(&list, , state->symbol);
	FIND_BIT(addr, /* nop */, size);
}

/* a conditional whose first branch starts with `else` goes on with the `if` before it
   (split_conditionals) */
int lookup(int family)
{
	int r;
	if (family == 4)
		r = 1;
#ifdef CONFIG_IPV6
	else if (family == 6)
		r = 2;
#endif
	else
		r = 0;
	return r;
}

/* declarator macros in a body: after `static`, or assigned to (declaration_macros); a
   pointer type first (`DEFINE_PER_CPU(u8 *, p)`) */
DEFINE_PER_CPU(u8 *, dstmem);
int warn_once(void)
{
	static DEFINE_RATELIMIT_STATE(rs, 5 * HZ, 10);
	DECLARE_BITMAP(bits, NBITS) = { 0 };
	return __ratelimit(&rs) + bits[0];
}
