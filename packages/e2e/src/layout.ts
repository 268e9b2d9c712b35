import type { Locator, Page } from 'playwright-core';

/** What covers (or pushes aside) a region of the page; empty when nothing does. */
export interface Coverage {
  region: string;
  problems: string[];
}

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const intersects = (a: Rect, b: Rect) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * Checks that the sidebar covers neither `region` nor shifts it: the page does not scroll
 * sideways (a wider page slides the content under the fixed sidebar), the sidebar's box and the
 * region's do not meet, and the element drawn at the region's corners and centre is the region's.
 */
export async function coverageOf(
  page: Page,
  region: string,
  target: Locator,
): Promise<Coverage> {
  await target.scrollIntoViewIfNeeded();
  const handle = await target.elementHandle();
  const sidebar = await page
    .locator('[class*="BackstageSidebar-drawer"]')
    .first()
    .elementHandle();
  if (!handle || !sidebar) {
    return {
      region,
      problems: [`${handle ? 'the sidebar' : region} is not on the page`],
    };
  }
  const measured = await page.evaluate(
    ([element, drawer]) => {
      const doc = document.documentElement;
      const describe = (e: Element | null) =>
        e
          ? `<${e.tagName.toLowerCase()} class="${String(e.className).slice(0, 80)}">`
          : 'nothing';
      const pastEdge = (e: Element) =>
        e.getBoundingClientRect().right > window.innerWidth + 1;
      // The innermost elements reaching past the window's right edge: the cause of a scroll.
      const wide = [...document.querySelectorAll('body *')]
        .filter(e => pastEdge(e) && ![...e.children].some(pastEdge))
        .slice(0, 5)
        .map(describe);
      // The page's widest reach: a user can scroll there, so the check looks there.
      window.scrollTo(doc.scrollWidth, window.scrollY);
      const box = element.getBoundingClientRect();
      const side = drawer.getBoundingClientRect();
      const inset = 2;
      const points = [
        [box.left + inset, box.top + inset],
        [box.right - inset, box.top + inset],
        [box.left + inset, box.bottom - inset],
        [box.right - inset, box.bottom - inset],
        [(box.left + box.right) / 2, (box.top + box.bottom) / 2],
      ].filter(([, y]) => y >= 0 && y < window.innerHeight);
      const covered = points
        .map(([x, y]) => ({ x, y, hit: document.elementFromPoint(x, y) }))
        .filter(p => !p.hit || !element.contains(p.hit))
        .map(
          p =>
            `(${Math.round(p.x)}, ${Math.round(p.y)}) shows ${describe(p.hit)}`,
        );
      const rect = (r: DOMRect) => ({
        left: r.left,
        top: r.top,
        right: r.right,
        bottom: r.bottom,
      });
      const result = {
        scrollWidth: doc.scrollWidth,
        innerWidth: window.innerWidth,
        box: rect(box),
        side: rect(side),
        covered,
        wide,
      };
      window.scrollTo(0, window.scrollY);
      return result;
    },
    [handle, sidebar] as const,
  );
  const problems: string[] = [];
  if (measured.scrollWidth > measured.innerWidth) {
    problems.push(
      `the page is ${measured.scrollWidth - measured.innerWidth} px wider than the window (${measured.innerWidth} px) and scrolls sideways; reaching past the edge: ${measured.wide.join(', ')}`,
    );
  }
  if (intersects(measured.box, measured.side)) {
    problems.push(
      `the sidebar (${JSON.stringify(measured.side)}) overlaps it (${JSON.stringify(measured.box)})`,
    );
  }
  problems.push(...measured.covered);
  return { region, problems };
}
