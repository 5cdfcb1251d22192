// Objective-C macros whose arguments are no C (React Native's RCTProfile.m, RCTScrollView.m)
// and a conditional that opens a block one branch closes (RCTAssert.m): what the objc pack
// reads in place.
#import "RCTProfile.h"

#define ADD_EVENT(type, props...) [events[type] addObject:@{@"pid" : @(pid), props}];
#define FORWARD(call) for (id l in listeners) { [l call]; }

void RCTProfileThreads(NSArray *threads)
{
  [threads enumerateObjectsUsingBlock:^(NSString *thread, NSUInteger idx, BOOL *stop) {
    ADD_EVENT(
        kTraceEvents,
        @"ph"
        : @"M",
          @"tid"
        : thread, @"args"
        : @{@"sort_index" : @(idx)});
  }];
}

@implementation RCTScroller

- (void)scrollViewDidScroll:(UIScrollView *)scrollView
{
  FORWARD(scrollViewDidScroll : scrollView);
  FORWARD(scrollViewDidEndZooming : scrollView withView : nil atScale : 1.0);
  // a conditional, a message, a selector and a block inside a call stay as they are
  NSLog(@"%@ %@", idx > 0 ? @"a" : @"b", [scrollView valueForKey:@"x"]);
  [self performSelector:@selector(stop:now:) withObject:nil];
  dispatch_async(queue, ^{ [self stop:YES now:NO]; });
}

@end

void RCTFatal(NSError *error)
{
  if (handler) {
    handler(error);
  } else {
#if DEBUG
    @try {
#endif
      @throw [[NSException alloc] initWithName:error.domain reason:nil userInfo:nil];
#if DEBUG
    } @catch (NSException *e) {
    }
#endif
  }
}

__attribute__((used)) RCT_EXTERN void RCTSetLevel(int level)
{
  minLevel = level;
}
