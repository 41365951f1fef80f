import { useEffect, useState } from 'preact/hooks';
import { parseRoute, type Route } from './router.js';

/** The current route, following `hashchange` (links, back and forward buttons). */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const follow = () => setRoute(parseRoute(location.hash));
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  return route;
}
