"""Every sentence parlbot says, by id: ``ids.Msg`` names them, ``locales/*.po`` word them."""
