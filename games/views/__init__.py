"""HTTP views, one module per area. Views stay thin: reads via selectors, writes via services."""
