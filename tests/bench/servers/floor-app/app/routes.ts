import { type RouteConfig, route } from '@react-router/dev/routes'

export default [
  // The framework floor for resource routes: a loader and a tiny JSON answer.
  route('trivial', 'routes/trivial.ts'),
  // The framework floor for pages: a loader and a document of about the home page's markup.
  route('page', 'routes/page.tsx'),
] satisfies RouteConfig
