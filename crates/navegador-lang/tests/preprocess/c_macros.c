static int __init f(char __user *p, struct s __rcu **q);
static bool dbg __read_mostly;
u8 d[] __aligned(8);
__printf(2, 3) void g(int a, const char *fmt, ...);
extern char __weak __start_BTF[];
x = (__force __le32)v;
void h(void)
{
	p = container_of(n, struct node, list);
	n = min_t(unsigned int, a, b);
	list_for_each_entry(p, &head, list) {
		use(p);
	}
	printk(KERN_ERR PFX "failed\n");
	switch (c) {
	case 1 ... 9:
		break;
	}
}
static DEFINE_MUTEX(lock);
static SIMPLE_DEV_PM_OPS(pm, on_suspend, on_resume);
static DEFINE_PER_CPU(struct stats, cpu_stats) = { 0 };
SYSCALL_DEFINE2(kill, pid_t, pid, int, sig)
{
	return 0;
}
struct t {
	DECLARE_BITMAP(bits, 64);
} __packed;
static noinline void k(void);
#define dbg(fmt, args...) pr(fmt, ##args)
int m(int a)
{
#ifdef X
	if (a) {
#else
	if (!a) {
#endif
		return 1;
	}
	return __u32_max(a);
}

/* an initializer's conditional with #elif and #else: its first branch only */
int table[] = {
#if defined(A)
  1,
#elif defined(B)
  2,
#else
  3,
#endif
};
